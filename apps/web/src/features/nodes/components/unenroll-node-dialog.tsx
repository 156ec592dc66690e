import type { Node } from '@fabric/contract';
import { LogOut } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useUnenrollNode } from '../api/node-actions';
import { nodeDisplayName } from './node-card';

/** Unenroll asks first, says what will happen, then removes the node and returns to My Nodes. */
export function UnenrollNodeDialog({ node }: { node: Node }) {
  const navigate = useNavigate();
  const unenroll = useUnenrollNode();

  return (
    <ConfirmDialog
      trigger={
        <Button variant="destructive">
          <LogOut aria-hidden="true" />
          Unenroll
        </Button>
      }
      title={`Unenroll ${nodeDisplayName(node)}?`}
      description={
        <>
          The device <span className="font-mono break-all">{node.device_id}</span> leaves the
          network.
        </>
      }
      keepLabel="Cancel"
      confirmLabel="Unenroll Node"
      pendingLabel="Unenrolling..."
      isPending={unenroll.isPending}
      onConfirm={async () => {
        try {
          await unenroll.mutateAsync(node.id);
        } catch (error) {
          // Stays open: the node is still enrolled and the provider may try again.
          toast.error(errorMessage(error, 'Failed to unenroll node'));
          return false;
        }
        toast.success('Node unenrolled');
        void navigate(paths.nodes.list.href());
        return true;
      }}
    >
      <ul className="list-disc space-y-1.5 pl-5 text-sm">
        <li>It gets no new jobs.</li>
        <li>A job it is running now is handed back to the queue for another node.</li>
        <li>Its agent stops the next time it checks in.</li>
        <li>You can enroll the device again later by running the agent on it.</li>
      </ul>
    </ConfirmDialog>
  );
}
