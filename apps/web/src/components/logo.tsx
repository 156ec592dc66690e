import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** Fabric's mark: four threads woven into one loop, like devices into one network. Decorative. */
export function LogoMark({ className, ...props }: ComponentProps<'svg'>) {
  return (
    <svg
      viewBox="0 0 32 32"
      fill="none"
      aria-hidden="true"
      focusable="false"
      className={cn('size-9 shrink-0', className)}
      {...props}
    >
      <rect width="32" height="32" rx="8" fill="currentColor" className="text-primary" />
      <rect x="7" y="7" width="13" height="5" rx="2.5" fill="#fff" />
      <rect x="20" y="7" width="5" height="13" rx="2.5" fill="#c7d2fe" />
      <rect x="12" y="20" width="13" height="5" rx="2.5" fill="#fff" />
      <rect x="7" y="12" width="5" height="13" rx="2.5" fill="#c7d2fe" />
    </svg>
  );
}
