import { RefreshCw, TriangleAlert } from 'lucide-react';
import { useRouteError } from 'react-router';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** Last resort when a screen crashes or its code cannot be loaded (e.g. after a deploy). */
export function RootErrorBoundary() {
  const error = useRouteError();
  useDocumentTitle('Something went wrong');
  console.error(error);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-5 px-4 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
        <TriangleAlert aria-hidden="true" className="size-6" />
      </div>
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Something went wrong</h1>
        <p className="max-w-md text-muted-foreground">
          This page could not be shown. Reloading usually fixes it; your data is safe.
        </p>
      </div>
      <Button
        onClick={() => {
          window.location.reload();
        }}
      >
        <RefreshCw aria-hidden="true" />
        Reload page
      </Button>
    </main>
  );
}
