import { apiPaths } from '@fabric/contract';
import { z } from 'zod';
import { ApiError, openStream } from '@/lib/api-client';
import { readServerSentEvents } from '@/lib/server-sent-events';

const changeSchema = z.object({
  kind: z.enum(['job', 'node', 'balance', 'notification']),
  id: z.string(),
});
export type Change = z.infer<typeof changeSchema>;

export type StreamMessage =
  /** The stream (re)opened or the server lost track: anything may have changed meanwhile. */
  { type: 'resync'; isFirst: boolean } | { type: 'change'; change: Change };

const FIRST_RETRY_MILLISECONDS = 1000;
const MAX_RETRY_MILLISECONDS = 30_000;

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(resolve, milliseconds);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Follows GET /api/events until `signal` aborts or the session ends (401 after a failed token
 * renewal), reconnecting with growing pauses when the connection drops. The server ends each
 * stream when its access token expires; the next connection renews the token.
 */
export async function followChanges(
  onMessage: (message: StreamMessage) => void,
  signal: AbortSignal,
): Promise<void> {
  let retryMilliseconds = FIRST_RETRY_MILLISECONDS;
  let isFirst = true;
  while (!signal.aborted) {
    try {
      const response = await openStream(apiPaths.events, signal);
      if (!response.body) throw new ApiError({ status: 0 });
      retryMilliseconds = FIRST_RETRY_MILLISECONDS;
      for await (const event of readServerSentEvents(response.body)) {
        if (event.event === 'ready' || event.event === 'resync') {
          onMessage({ type: 'resync', isFirst: isFirst && event.event === 'ready' });
          isFirst = false;
        } else if (event.event === 'change') {
          const parsed = changeSchema.safeParse(JSON.parse(event.data));
          if (parsed.success) onMessage({ type: 'change', change: parsed.data });
        }
      }
    } catch (error) {
      // Signed out for good (the renewal failed): stop. Anything else: reconnect after a pause.
      if (error instanceof ApiError && error.status === 401) return;
    }
    await sleep(retryMilliseconds, signal);
    retryMilliseconds = Math.min(retryMilliseconds * 2, MAX_RETRY_MILLISECONDS);
  }
}
