import type { LucideIcon } from 'lucide-react';
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
import { TextField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { newIdempotencyKey } from '@/lib/idempotency-key';

export const INVALID_AMOUNT_MESSAGE = 'Please enter a valid amount';

/** The amount typed, when it parses to a number above 0 (spec section 5); else null. */
export function parseAmount(text: string): number | null {
  const amount = Number.parseFloat(text);
  return Number.isFinite(amount) && amount > 0 ? amount : null;
}

/**
 * A button opening a dialog that asks for a dollar amount. `submit` gets the amount and a fresh
 * idempotency key per submission, and resolves true when the dialog may close (and clear).
 */
export function AmountDialog({
  triggerLabel,
  triggerIcon: TriggerIcon,
  triggerVariant = 'default',
  title,
  description,
  submitLabel,
  fieldDescription,
  validate,
  submit,
  isPending,
}: {
  triggerLabel: string;
  triggerIcon: LucideIcon;
  triggerVariant?: 'default' | 'outline';
  title: string;
  description: ReactNode;
  submitLabel: string;
  fieldDescription?: ReactNode;
  /** A message for an amount above 0 that still cannot be used, else null. */
  validate?: (amount: number) => string | null;
  submit: (amount: number, idempotencyKey: string) => Promise<boolean>;
  isPending: boolean;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [amountText, setAmountText] = useState('');
  const [error, setError] = useState<string | undefined>();

  function reset() {
    setAmountText('');
    setError(undefined);
  }

  async function confirm() {
    const amount = parseAmount(amountText);
    const message = amount === null ? INVALID_AMOUNT_MESSAGE : (validate?.(amount) ?? null);
    setError(message ?? undefined);
    if (amount === null || message !== null) return;
    if (await submit(amount, newIdempotencyKey())) {
      setIsOpen(false);
      reset();
    }
  }

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        // Stay open while the request is in flight, so its outcome is not missed.
        if (isPending) return;
        setIsOpen(open);
        if (!open) setError(undefined);
      }}
    >
      <DialogTrigger asChild>
        <Button variant={triggerVariant}>
          <TriggerIcon aria-hidden="true" />
          {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form
          noValidate
          aria-label={title}
          className="grid gap-5"
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <TextField
            label="Amount (USD)"
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            placeholder="0.00"
            autoComplete="off"
            value={amountText}
            error={error}
            description={fieldDescription}
            onChange={(event) => {
              setAmountText(event.target.value);
              if (error) setError(undefined);
            }}
          />
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={isPending}>
              {isPending ? <Spinner /> : null}
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
