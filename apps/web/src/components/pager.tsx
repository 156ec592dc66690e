import { ChevronsLeft, ChevronsRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/**
 * Previous / "Page N of M" / Next under a paged list; with `hasEnds`, also first and last page
 * (My Jobs has 500 pages at 10,000 jobs). `isNextDisabled` holds Next while the next page loads.
 */
export function Pager({
  label,
  page,
  pageCount,
  onPageChange,
  hasEnds = false,
  isNextDisabled = false,
  className,
}: {
  label: string;
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  hasEnds?: boolean;
  isNextDisabled?: boolean;
  className?: string;
}) {
  const isFirst = page <= 1;
  const isLast = page >= pageCount;
  return (
    <nav
      aria-label={label}
      className={cn('flex items-center justify-between gap-2 text-sm', className)}
    >
      <div className="flex gap-1.5">
        {hasEnds ? (
          <Button
            variant="outline"
            size="sm"
            aria-label="First page"
            title="First page"
            disabled={isFirst}
            onClick={() => onPageChange(1)}
          >
            <ChevronsLeft aria-hidden="true" />
          </Button>
        ) : null}
        <Button
          variant="outline"
          size="sm"
          disabled={isFirst}
          onClick={() => onPageChange(Math.max(1, page - 1))}
        >
          Previous
        </Button>
      </div>
      <span className="text-muted-foreground">
        Page {page} of {pageCount}
      </span>
      <div className="flex gap-1.5">
        <Button
          variant="outline"
          size="sm"
          disabled={isLast || isNextDisabled}
          onClick={() => onPageChange(page + 1)}
        >
          Next
        </Button>
        {hasEnds ? (
          <Button
            variant="outline"
            size="sm"
            aria-label="Last page"
            title="Last page"
            disabled={isLast}
            onClick={() => onPageChange(pageCount)}
          >
            <ChevronsRight aria-hidden="true" />
          </Button>
        ) : null}
      </div>
    </nav>
  );
}
