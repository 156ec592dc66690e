import type { Node } from '@fabric/contract';
import { useId } from 'react';
import { Link } from 'react-router';
import { NodeStatusBadge } from '@/components/node-status-badge';
import { paths } from '@/config/paths';
import { formatCpu, formatMemory, formatUptime, formatUsd } from '@/lib/format';

export function nodeDisplayName(node: Pick<Node, 'name'>): string {
  return node.name || 'Unnamed Node';
}

/**
 * One device. Its name is the link to the detail page, stretched over the whole card, so the card
 * opens on a click anywhere and the link's name is exactly what it shows (WCAG 2.5.3).
 */
export function NodeCard({ node }: { node: Node }) {
  const titleId = useId();
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
      aria-labelledby={titleId}
      className="relative flex flex-col gap-4 rounded-xl border bg-card p-5 shadow-sm transition-colors has-[a:focus-visible]:ring-3 has-[a:focus-visible]:ring-ring/50 hover:border-primary/40"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} className="truncate font-semibold">
            <Link
              to={paths.nodes.detail.href(node.id)}
              className="outline-none after:absolute after:inset-0 after:rounded-xl"
            >
              {name}
            </Link>
          </h2>
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
