import type { Node } from '@fabric/contract';
import { Link, useNavigate } from 'react-router';
import { NodeStatusBadge } from '@/components/node-status-badge';
import { paths } from '@/config/paths';
import { formatUsd } from '@/lib/format';
import { nodeDisplayName } from './node-card';

/** The dashboard's My Nodes table; a row click opens the node. */
export function NodesTable({ nodes }: { nodes: Node[] }) {
  const navigate = useNavigate();
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <thead className="text-left text-muted-foreground">
          <tr className="border-b">
            <th className="px-3 py-2 font-medium">Device</th>
            <th className="px-3 py-2 font-medium">Status</th>
            <th className="px-3 py-2 font-medium">Jobs Completed</th>
            <th className="px-3 py-2 font-medium">Lifetime Earnings</th>
            <th className="px-3 py-2 font-medium">Actions</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((node) => (
            <tr
              key={node.id}
              onClick={() => void navigate(paths.nodes.detail.href(node.id))}
              className="cursor-pointer border-b last:border-0 hover:bg-muted/50"
            >
              <td className="px-3 py-2">
                <div className="font-medium">{nodeDisplayName(node)}</div>
                <div className="font-mono text-xs text-muted-foreground">{node.device_id}</div>
              </td>
              <td className="px-3 py-2">
                <NodeStatusBadge status={node.status} />
              </td>
              <td className="px-3 py-2">{node.jobs_completed}</td>
              <td className="px-3 py-2">{formatUsd(node.lifetime_earnings)}</td>
              <td className="px-3 py-2">
                <Link
                  to={paths.nodes.detail.href(node.id)}
                  onClick={(event) => event.stopPropagation()}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  View
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
