import type { Node } from '@fabric/contract';
import { Pause, Play } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { usePauseNode, useResumeNode } from '../api/node-actions';
import { UnenrollNodeDialog } from './unenroll-node-dialog';

/** Pause (online or offline node) or Resume (paused node), and Unenroll. */
export function NodeActionsBar({ node }: { node: Node }) {
  const pause = usePauseNode();
  const resume = useResumeNode();
  const isPaused = node.status === 'paused';
  const isBusy = pause.isPending || resume.isPending;

  return (
    <>
      {isPaused ? (
        <Button
          disabled={isBusy}
          onClick={() =>
            resume.mutate(node.id, {
              onSuccess: () => toast.success('Node resumed'),
              onError: (error) => toast.error(errorMessage(error, 'Failed to resume node')),
            })
          }
        >
          {resume.isPending ? <Spinner /> : <Play aria-hidden="true" />}
          Resume
        </Button>
      ) : (
        <Button
          variant="outline"
          disabled={isBusy}
          onClick={() =>
            pause.mutate(node.id, {
              onSuccess: () => toast.success('Node paused'),
              onError: (error) => toast.error(errorMessage(error, 'Failed to pause node')),
            })
          }
        >
          {pause.isPending ? <Spinner /> : <Pause aria-hidden="true" />}
          Pause
        </Button>
      )}
      <UnenrollNodeDialog node={node} />
    </>
  );
}
