import { Spinner } from '@/components/ui/spinner';

/** Shown while the first screen's code loads. */
export function RouteFallback() {
  return (
    <div role="status" className="flex min-h-dvh items-center justify-center">
      <Spinner className="size-6 text-primary" />
      <span className="sr-only">Loading</span>
    </div>
  );
}
