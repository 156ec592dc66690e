import type { Node } from '@fabric/contract';
import { Server, ServerOff } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { NodeStatusBadge } from '@/components/node-status-badge';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { isNodeId, useNode } from '@/features/nodes/api/get-node';
import { useNodeEarnings } from '@/features/nodes/api/get-node-earnings';
import { useNodeJobs } from '@/features/nodes/api/get-node-jobs';
import { NodeActionsBar } from '@/features/nodes/components/node-actions-bar';
import { nodeDisplayName } from '@/features/nodes/components/node-card';
import { NodeEarningsChart } from '@/features/nodes/components/node-earnings-chart';
import { NodeHardwareCard } from '@/features/nodes/components/node-hardware-card';
import { NodeJobsTable } from '@/features/nodes/components/node-jobs-table';
import { NodeStats } from '@/features/nodes/components/node-stats';
import { useStoredRole } from '@/hooks/use-stored-session';
import { ApiError, errorMessage } from '@/lib/api-client';
import { BackLink } from './back-link';

const TITLE = 'Node Details';

function isNotFound(error: unknown): boolean {
  // A malformed id is refused with 400; for this screen both mean there is no such node.
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** /nodes/:nodeId: one of the provider's nodes, its earnings and its recent jobs. */
export function NodeDetailsRoute() {
  const { nodeId = '' } = useParams();
  const isProvider = useStoredRole() === 'node_provider';
  const isValidId = isNodeId(nodeId);
  // Node data loads only for node providers (spec section 6).
  const enabled = isProvider && isValidId;
  const node = useNode(nodeId, { enabled });
  const earnings = useNodeEarnings(nodeId, { enabled });
  const jobs = useNodeJobs(nodeId, { enabled });

  const back = <BackLink to={paths.nodes.list.href()}>Back to My Nodes</BackLink>;

  if (!isProvider) {
    return (
      <>
        {back}
        <PageHeader title={TITLE} />
        <EmptyState icon={Server} title="Node details are for node providers">
          <p>
            Sign in with a node provider account to see a node&apos;s status, hardware, earnings and
            jobs.
          </p>
        </EmptyState>
      </>
    );
  }

  if (!isValidId || isNotFound(node.error)) {
    return (
      <>
        {back}
        <PageHeader title={TITLE} />
        <EmptyState
          icon={ServerOff}
          title="Node not found"
          action={
            <Button asChild variant="outline">
              <Link to={paths.nodes.list.href()}>Back to My Nodes</Link>
            </Button>
          }
        >
          <p>This node does not exist, was unenrolled, or belongs to another account.</p>
        </EmptyState>
      </>
    );
  }

  if (node.isPending) {
    return (
      <>
        {back}
        <PageHeader title={TITLE} />
        <NodeDetailsSkeleton />
      </>
    );
  }

  const loadedNode = node.data;
  // A failed refetch keeps the node it had; only a node never loaded is an error screen.
  if (loadedNode === undefined) {
    return (
      <>
        {back}
        <PageHeader title={TITLE} />
        <Alert variant="destructive">
          <AlertTitle>This node could not be loaded</AlertTitle>
          <AlertDescription>{errorMessage(node.error, 'API request failed')}</AlertDescription>
        </Alert>
      </>
    );
  }

  return (
    <>
      {back}
      <PageHeader
        title={TITLE}
        description={<NodeIdentity node={loadedNode} />}
        actions={<NodeActionsBar node={loadedNode} />}
      />
      <div className="space-y-6">
        <NodeStats node={loadedNode} />
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="min-w-0 lg:col-span-2">
            <NodeEarningsChart
              earnings={earnings.data}
              isPending={earnings.isPending}
              error={earnings.isError ? errorMessage(earnings.error, 'API request failed') : null}
            />
          </div>
          <NodeHardwareCard node={loadedNode} />
        </div>
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Recent Jobs</CardTitle>
          </CardHeader>
          <CardContent>
            {jobs.isPending ? (
              <Skeleton className="h-32" />
            ) : jobs.isError ? (
              <p className="text-sm text-destructive">
                {errorMessage(jobs.error, 'API request failed')}
              </p>
            ) : (
              <NodeJobsTable attempts={jobs.data} />
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}

/** Inside the header's paragraph, so phrasing content only. */
function NodeIdentity({ node }: { node: Node }) {
  return (
    <>
      <span className="flex flex-wrap items-center gap-2">
        <span className="text-lg font-medium text-foreground" data-testid="node-name">
          {nodeDisplayName(node)}
        </span>
        <NodeStatusBadge status={node.status} />
      </span>
      <span className="mt-1 block font-mono text-xs break-all" data-testid="device-id">
        {node.device_id}
      </span>
    </>
  );
}

function NodeDetailsSkeleton() {
  return (
    <div className="space-y-6" role="status" aria-label="Loading node">
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {[0, 1, 2, 3].map((key) => (
          <Skeleton key={key} className="h-28 rounded-xl" />
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Skeleton className="h-80 rounded-xl lg:col-span-2" />
        <Skeleton className="h-80 rounded-xl" />
      </div>
      <Skeleton className="h-48 rounded-xl" />
    </div>
  );
}
