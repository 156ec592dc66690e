import { Server } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrentUser } from '@/features/auth/api/get-current-user';
import { useNodes } from '@/features/nodes/api/get-nodes';
import { AddNodeDialog } from '@/features/nodes/components/add-node-dialog';
import { NodeCard } from '@/features/nodes/components/node-card';
import { useStoredEmail, useStoredRole } from '@/hooks/use-stored-session';
import { errorMessage } from '@/lib/api-client';

export function NodesRoute() {
  const role = useStoredRole();
  const isProvider = role === 'node_provider';
  const nodes = useNodes({ enabled: isProvider });
  const { data: user } = useCurrentUser();
  const storedEmail = useStoredEmail();
  const email = user?.email ?? storedEmail ?? '';

  return (
    <>
      <PageHeader
        title="My Nodes"
        description="The devices you share with the network."
        actions={isProvider ? <AddNodeDialog email={email} /> : null}
      />
      {!isProvider ? (
        <EmptyState icon={Server} title="Nodes are for node providers">
          <p>Sign in with a node provider account to share devices with the network.</p>
        </EmptyState>
      ) : nodes.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Loading nodes">
          {[0, 1, 2].map((key) => (
            <Skeleton key={key} className="h-44 rounded-xl" />
          ))}
        </div>
      ) : nodes.isError ? (
        <Alert variant="destructive">
          <AlertTitle>Your nodes could not be loaded</AlertTitle>
          <AlertDescription>{errorMessage(nodes.error, 'API request failed')}</AlertDescription>
        </Alert>
      ) : nodes.data.length === 0 ? (
        <EmptyState icon={Server} title="No Nodes Registered">
          <p>Add a node to start sharing this device&apos;s compute and earning.</p>
        </EmptyState>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {nodes.data.map((node) => (
            <NodeCard key={node.id} node={node} />
          ))}
        </div>
      )}
    </>
  );
}
