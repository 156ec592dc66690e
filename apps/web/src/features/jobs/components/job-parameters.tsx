import type { Job } from '@fabric/contract';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/** The params as submitted, pretty-printed. */
export function JobParameters({ params }: { params: Job['params'] }) {
  const isEmpty = Object.keys(params).length === 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Parameters</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        <pre
          tabIndex={0}
          aria-label="Job parameters (JSON)"
          className="max-h-80 overflow-auto rounded-md border bg-muted/50 p-3 font-mono text-xs leading-relaxed"
        >
          {JSON.stringify(params, null, 2)}
        </pre>
        {isEmpty ? (
          <p className="text-xs text-muted-foreground">
            No parameters were given: the job type’s defaults apply.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
