import { zodResolver } from '@hookform/resolvers/zod';
import { deleteAccountRequestSchema } from '@fabric/contract';
import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
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
import { TextField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { showServerFieldError } from '@/lib/form-errors';
import { useDeleteAccount } from '../api/delete-account';

const deleteAccountFormSchema = deleteAccountRequestSchema.extend({
  current_password: z.string().min(1, 'Current password is required'),
  // Typed text: a string until it is checked to be the word.
  confirm: z.string().refine((value) => value === 'DELETE', 'Type DELETE to confirm'),
});

const emptyValues = { current_password: '', confirm: '' };

function DeleteAccountForm({ onDeleted }: { onDeleted: (message: string) => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(deleteAccountFormSchema), defaultValues: emptyValues });
  const deleteAccount = useDeleteAccount();

  return (
    <form
      noValidate
      aria-label="Delete account"
      className="grid gap-5"
      onSubmit={(event) =>
        void handleSubmit(({ current_password }) => {
          deleteAccount.mutate(
            { current_password, confirm: 'DELETE' },
            {
              onSuccess: onDeleted,
              onError: (error) => {
                if (!showServerFieldError(error, setError, ['current_password', 'confirm'])) {
                  toast.error('Could not delete your account', {
                    description: errorMessage(error, 'Please try again.'),
                  });
                }
              },
            },
          );
        })(event)
      }
    >
      <TextField
        label="Current Password"
        type="password"
        autoComplete="current-password"
        error={errors.current_password?.message}
        {...register('current_password')}
      />
      <TextField
        label="Type DELETE to confirm"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        error={errors.confirm?.message}
        {...register('confirm')}
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" variant="destructive" disabled={deleteAccount.isPending}>
          {deleteAccount.isPending ? <Spinner /> : null}
          {deleteAccount.isPending ? 'Deleting...' : 'Delete my account'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * The Danger Zone: closing the account after the password and the typed word DELETE. What follows
 * a closure (ending the session, leaving the page) is the caller's.
 */
export function DeleteAccountCard({ onDeleted }: { onDeleted: (message: string) => void }) {
  const [isOpen, setIsOpen] = useState(false);

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle className="text-destructive">Danger Zone</CardTitle>
        <CardDescription>Permanently close your account.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          Your jobs are cancelled, your nodes unenrolled and you are signed out everywhere. This
          cannot be undone.
        </p>
        <Dialog open={isOpen} onOpenChange={setIsOpen}>
          <DialogTrigger asChild>
            <Button variant="destructive" className="self-start sm:self-auto">
              Delete Account
            </Button>
          </DialogTrigger>
          <DialogContent>
            <DialogHeader>
              <DialogTitle className="flex items-center gap-2 text-left">
                <TriangleAlert aria-hidden="true" className="size-5 text-destructive" />
                Delete your account?
              </DialogTitle>
              <DialogDescription asChild>
                <div className="grid gap-2 text-left">
                  <p>Deleting your account:</p>
                  <ul className="list-disc space-y-1 pl-5">
                    <li>cancels your queued and running jobs;</li>
                    <li>unenrolls your nodes, so their agents stop taking work;</li>
                    <li>signs you out on every device.</li>
                  </ul>
                  <p>
                    Any balance left in your account is kept as unclaimed funds; contact support to
                    have it returned. This cannot be undone.
                  </p>
                </div>
              </DialogDescription>
            </DialogHeader>
            {/* The dialog's content mounts on open, so each opening starts an empty form. */}
            <DeleteAccountForm onDeleted={onDeleted} />
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
