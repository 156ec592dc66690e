import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { Input } from './input';
import { Label } from './label';

export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} data-slot="field-error" className="text-sm font-medium text-destructive">
      {children}
    </p>
  );
}

export type TextFieldProps = ComponentProps<'input'> & {
  label: string;
  /** Validation message; marks the input invalid and is announced with it. */
  error?: string | undefined;
  /** Help shown under the input (hidden while an error is shown). */
  description?: ReactNode;
  /** Something to show at the end of the label row, such as a "Forgot password?" link. */
  labelAction?: ReactNode;
};

/** Label + input + help/error text, wired with htmlFor, aria-invalid and aria-describedby. */
export function TextField({
  label,
  error,
  description,
  labelAction,
  id,
  className,
  ...inputProps
}: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const descriptionId = `${inputId}-description`;
  const errorId = `${inputId}-error`;
  const showDescription = description !== undefined && !error;
  const describedBy =
    [showDescription ? descriptionId : null, error ? errorId : null].filter(Boolean).join(' ') ||
    undefined;

  return (
    <div data-slot="field" className={cn('grid content-start gap-2', className)}>
      <div className="flex min-h-4 items-center justify-between gap-2">
        <Label htmlFor={inputId}>{label}</Label>
        {labelAction}
      </div>
      <Input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...inputProps}
      />
      {showDescription ? (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      ) : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}
