import type { Node } from '@fabric/contract';
import { useNavigate } from 'react-router';
import { NodeStatusBadge } from '@/components/node-status-badge';
import { paths } from '@/config/paths';
import { formatCpu, formatMemory, formatUptime, formatUsd } from '@/lib/format';

export function nodeDisplayName(node: Pick<Node, 'name'>): string {
  return node.name || 'Unnamed Node';
}

/** One device: opens its detail page on click, Enter or Space. */
export function NodeCard({ node }: { node: Node }) {
  const navigate = useNavigate();
  const open = () => void navigate(paths.nodes.detail.href(node.id));
  const name = nodeDisplayName(node);
  const facts: [string, string][] = [
    ['CPU', formatCpu(node)],
    ['Memory', formatMemory(node)],
    ['Jobs Done', String(node.jobs_completed)],
    ['Earned', formatUsd(node.lifetime_earnings)],
    ['Uptime', formatUptime(node)],
  ];
  return (
    <article
      role="link"
      tabIndex={0}
      aria-label={`${name}, open details`}
      onClick={open}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          open();
        }
      }}
      className="flex cursor-pointer flex-col gap-4 rounded-xl border bg-card p-5 shadow-sm transition-colors outline-none hover:border-primary/40 focus-visible:ring-3 focus-visible:ring-ring/50"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="truncate font-semibold">{name}</h2>
          <p className="truncate font-mono text-xs text-muted-foreground">{node.device_id}</p>
        </div>
        <NodeStatusBadge status={node.status} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="truncate font-medium">{value}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
