import { openStream } from './api-client';

/**
 * GETs an authenticated path that answers text (such as the HTML statement) with the bearer
 * token, renewing an expired token once like every other call. Rejects with an ApiError carrying
 * the server's message when the server refuses.
 */
export async function fetchText(path: string, signal?: AbortSignal): Promise<string> {
  const response = await openStream(path, signal ?? new AbortController().signal);
  return response.text();
}
