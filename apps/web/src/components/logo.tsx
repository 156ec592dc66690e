import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** Fabric's mark: threads woven into a grid, like devices woven into one network. Decorative. */
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
      <path d="M8 11h16M8 16h16M8 21h16" stroke="#c7d2fe" strokeWidth="2.4" strokeLinecap="round" />
      <path
        d="M11 8v16M16 8v16M21 8v16"
        stroke="#fff"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeDasharray="3 2"
      />
    </svg>
  );
}
