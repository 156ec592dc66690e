import { LoaderCircle } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** Decorative: the element it sits in says what is happening. */
export function Spinner({ className, ...props }: ComponentProps<'svg'>) {
  return (
    <LoaderCircle aria-hidden="true" className={cn('size-4 animate-spin', className)} {...props} />
  );
}
