import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

// The pieces every job type's result view is built from.

export const integer = new Intl.NumberFormat('en-US');

/** Long numbers stay on their lines but may wrap anywhere; long blocks scroll inside the card. */
export const monoBlock =
  'max-h-64 overflow-auto rounded-md border bg-muted/50 p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap';

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 rounded-lg border bg-muted/30 px-3 py-2.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 font-medium break-words">{children}</dd>
    </div>
  );
}

export function Facts({ children, columns = 2 }: { children: ReactNode; columns?: 2 | 3 }) {
  return (
    <dl
      className={cn(
        'grid grid-cols-1 gap-3 text-sm min-[420px]:grid-cols-2',
        columns === 3 && 'md:grid-cols-3',
      )}
    >
      {children}
    </dl>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="grid gap-2">
      <h3 className="text-sm font-medium">{title}</h3>
      {children}
    </section>
  );
}
