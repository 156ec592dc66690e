import type { Role } from '@fabric/contract';
import { Bell, BriefcaseBusiness, CreditCard, LayoutDashboard, Server, Wallet } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { paths } from '@/config/paths';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Active only on this exact path (the dashboard would otherwise match everything). */
  end?: boolean;
  /** Shows the unread notification count. */
  showsUnreadCount?: boolean;
}

export const navItemsByRole: Record<Role, readonly NavItem[]> = {
  node_provider: [
    { label: 'Dashboard', to: paths.home.href(), icon: LayoutDashboard, end: true },
    { label: 'My Nodes', to: paths.nodes.list.href(), icon: Server },
    { label: 'Earnings', to: paths.billing.href(), icon: Wallet },
    { label: 'Notifications', to: paths.notifications.href(), icon: Bell, showsUnreadCount: true },
  ],
  enterprise: [
    { label: 'Dashboard', to: paths.home.href(), icon: LayoutDashboard, end: true },
    { label: 'My Jobs', to: paths.jobs.list.href(), icon: BriefcaseBusiness },
    { label: 'Billing', to: paths.billing.href(), icon: CreditCard },
    { label: 'Notifications', to: paths.notifications.href(), icon: Bell, showsUnreadCount: true },
  ],
};

export const roleLabels: Record<Role, string> = {
  node_provider: 'Node Provider',
  enterprise: 'Enterprise',
};
