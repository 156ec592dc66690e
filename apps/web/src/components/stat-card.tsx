import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';

/** One dashboard figure. `value` undefined while loading; `note` is a caption under it. */
export function StatCard({
  title,
  value,
  icon: Icon,
  note,
}: {
  title: string;
  value: ReactNode;
  icon: LucideIcon;
  note?: ReactNode;
}) {
  return (
    <section
      aria-label={title}
      className="flex flex-col gap-2 rounded-xl border bg-card p-5 shadow-sm"
    >
      <div className="flex items-center justify-between gap-2 text-sm text-muted-foreground">
        <h2 className="font-medium">{title}</h2>
        <Icon aria-hidden="true" className="size-4" />
      </div>
      <div className="text-2xl font-semibold tracking-tight" data-testid="stat-value">
        {value === undefined ? <Skeleton className="h-8 w-20" /> : value}
      </div>
      {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
    </section>
  );
}
