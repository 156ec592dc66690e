import type { NodeStatus } from '@fabric/contract';
import { Badge } from '@/components/ui/badge';

const nodeStatuses: Record<
  NodeStatus,
  { label: string; variant: 'success' | 'warning' | 'outline' }
> = {
  online: { label: 'Online', variant: 'success' },
  paused: { label: 'Paused', variant: 'warning' },
  offline: { label: 'Offline', variant: 'outline' },
};

export function NodeStatusBadge({ status }: { status: NodeStatus }) {
  const { label, variant } = nodeStatuses[status];
  return (
    <Badge variant={variant} data-status={status}>
      {label}
    </Badge>
  );
}
