import type { Role } from '@fabric/contract';
import { ChevronDown, CreditCard, LogOut, Settings } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { paths } from '@/config/paths';
import { useCurrentUser } from '@/features/auth/api/get-current-user';
import { useSignOut } from '@/features/auth/api/sign-out';
import { useStoredEmail } from '@/hooks/use-stored-session';
import { roleLabels } from './nav-items';

export function AccountMenu({ role }: { role: Role }) {
  // Loading the user also brings the stored role in line with the server's.
  const currentUser = useCurrentUser();
  const storedEmail = useStoredEmail();
  const signOut = useSignOut();

  const email = currentUser.data?.email ?? storedEmail;
  const accountLabel = email ?? roleLabels[role];
  const initial = (email ?? roleLabels[role]).charAt(0).toUpperCase();

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          className="h-10 max-w-64 gap-2 rounded-full px-1.5 md:pr-3"
          aria-label={`Account menu for ${accountLabel}`}
        >
          {/* The initial is drawn by CSS, not text: the button's visible text stays exactly the
              email its accessible name contains (WCAG 2.5.3, label in name). */}
          <span
            aria-hidden="true"
            data-initial={initial}
            className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground before:content-[attr(data-initial)]"
          />
          <span className="hidden truncate text-sm md:inline">{accountLabel}</span>
          <ChevronDown aria-hidden="true" className="hidden text-muted-foreground md:block" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="grid gap-1.5">
          <span className="text-xs font-normal text-muted-foreground">Signed in as</span>
          <span className="truncate">{accountLabel}</span>
          <Badge variant="secondary">{roleLabels[role]}</Badge>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={paths.settings.href()}>
            <Settings aria-hidden="true" />
            Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to={paths.billing.href()}>
            <CreditCard aria-hidden="true" />
            Billing
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={signOut}>
          <LogOut aria-hidden="true" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
