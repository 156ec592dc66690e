import type { Node } from '@fabric/contract';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useUnenrollNode } from '../api/node-actions';
import { nodeDisplayName } from './node-card';

/** Unenroll asks first, says what will happen, then removes the node and returns to My Nodes. */
export function UnenrollNodeDialog({ node }: { node: Node }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const unenroll = useUnenrollNode();
  const name = nodeDisplayName(node);

  // mutateAsync, not mutate's callbacks: a live update may re-render the page without this
  // dialog (the node is gone) before the callbacks run, and TanStack Query drops them then.
  async function confirm() {
    try {
      await unenroll.mutateAsync(node.id);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to unenroll node'));
      return;
    }
    toast.success('Node unenrolled');
    setOpen(false);
    void navigate(paths.nodes.list.href());
  }

  return (
    <Dialog
      open={open}
      // Stay open while the call runs, so its outcome is seen where it was asked for.
      onOpenChange={(next) => {
        if (!unenroll.isPending) setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive">
          <LogOut aria-hidden="true" />
          Unenroll
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Unenroll {name}?</DialogTitle>
          <DialogDescription>
            The device <span className="font-mono break-all">{node.device_id}</span> leaves the
            network.
          </DialogDescription>
        </DialogHeader>
        <ul className="list-disc space-y-1.5 pl-5 text-sm">
          <li>It gets no new jobs.</li>
          <li>A job it is running now is handed back to the queue for another node.</li>
          <li>Its agent stops the next time it checks in.</li>
          <li>You can enroll the device again later by running the agent on it.</li>
        </ul>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={unenroll.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button
            variant="destructive"
            onClick={() => void confirm()}
            disabled={unenroll.isPending}
          >
            {unenroll.isPending ? <Spinner /> : null}
            {unenroll.isPending ? 'Unenrolling...' : 'Unenroll Node'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
