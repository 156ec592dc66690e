import { useState, type ReactNode } from 'react';
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

/**
 * A button that asks before a destructive action. The dialog stays open while the action runs, so
 * its outcome is seen where it was asked for; `onConfirm` resolves true to close it.
 *
 * `onConfirm` should await the mutation (`mutateAsync`) rather than use mutate's callbacks: a live
 * update may re-render the page without this dialog before the callbacks run, and TanStack Query
 * drops them when it unmounts.
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  children,
  keepLabel,
  confirmLabel,
  pendingLabel = confirmLabel,
  isPending,
  onConfirm,
}: {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  /** More detail below the description. */
  children?: ReactNode;
  keepLabel: string;
  confirmLabel: string;
  pendingLabel?: string;
  isPending: boolean;
  onConfirm: () => Promise<boolean>;
}) {
  const [isOpen, setIsOpen] = useState(false);

  async function confirm() {
    if (await onConfirm()) setIsOpen(false);
  }

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        if (!isPending) setIsOpen(open);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={isPending}>
              {keepLabel}
            </Button>
          </DialogClose>
          <Button variant="destructive" onClick={() => void confirm()} disabled={isPending}>
            {isPending ? <Spinner /> : null}
            {isPending ? pendingLabel : confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
