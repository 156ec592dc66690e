import { Progress as ProgressPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** A determinate progress bar; `value` is 0..max (100 by default). Give it an aria-label or aria-labelledby. */
export function Progress({
  className,
  value,
  max = 100,
  ...props
}: ComponentProps<typeof ProgressPrimitive.Root>) {
  const share = value === null || value === undefined ? 0 : Math.min(Math.max(value / max, 0), 1);
  return (
    <ProgressPrimitive.Root
      data-slot="progress"
      value={value}
      max={max}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-primary/15', className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        data-slot="progress-indicator"
        className="h-full w-full bg-primary transition-transform duration-500 ease-out motion-reduce:transition-none"
        style={{ transform: `translateX(-${String(100 - share * 100)}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
