import type { Job } from '@fabric/contract';
import { Link } from 'react-router';
import { JobStatusBadge } from '@/components/job-status-badge';
import { paths } from '@/config/paths';
import { formatJobCost, formatJobType, shortId } from '@/lib/format';

/** Jobs with short id, type, status, cost, optionally the node, and a View link. */
export function JobsTable({ jobs, showNode = true }: { jobs: Job[]; showNode?: boolean }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <thead className="text-left text-muted-foreground">
          <tr className="border-b">
            <th className="px-3 py-2 font-medium">Job ID</th>
            <th className="px-3 py-2 font-medium">Type</th>
            <th className="px-3 py-2 font-medium">Status</th>
            <th className="px-3 py-2 font-medium">Cost</th>
            {showNode ? <th className="px-3 py-2 font-medium">Node</th> : null}
            <th className="px-3 py-2 font-medium">Actions</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr key={job.id} className="border-b last:border-0">
              <td className="px-3 py-2 font-mono text-xs">{shortId(job.id)}</td>
              <td className="px-3 py-2 whitespace-nowrap">{formatJobType(job.job_type)}</td>
              <td className="px-3 py-2">
                <JobStatusBadge status={job.status} />
              </td>
              <td className="px-3 py-2">{formatJobCost(job)}</td>
              {showNode ? (
                <td className="px-3 py-2 font-mono text-xs">
                  {job.assigned_node_id ? shortId(job.assigned_node_id) : 'Unassigned'}
                </td>
              ) : null}
              <td className="px-3 py-2">
                <Link
                  to={paths.jobs.detail.href(job.id)}
                  aria-label={`View job ${shortId(job.id)}`}
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
