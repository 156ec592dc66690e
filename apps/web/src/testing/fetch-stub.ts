import { vi } from 'vitest';

// A local stand-in for the network in unit tests: answers by "METHOD /path" and records every call.

export interface RecordedCall {
  method: string;
  path: string;
  url: string;
  headers: Headers;
  body: unknown;
}

type Answer = Response | Promise<Response>;
type Handler = (call: RecordedCall) => Answer;

export function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export interface FetchStub {
  calls: RecordedCall[];
  /** Answers "METHOD /path" with the handler (later registrations win). */
  on: (route: string, handler: Handler) => FetchStub;
  /** Calls made to "METHOD /path". */
  callsTo: (route: string) => RecordedCall[];
}

/** Replaces global fetch for the current test (vitest's unstubGlobals restores it). */
export function stubFetch(): FetchStub {
  const handlers = new Map<string, Handler>();
  const calls: RecordedCall[] = [];

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = new URL(url, 'http://localhost').pathname;
    const rawBody = init?.body;
    const call: RecordedCall = {
      method,
      path,
      url,
      headers: new Headers(init?.headers),
      body: typeof rawBody === 'string' ? (JSON.parse(rawBody) as unknown) : undefined,
    };
    calls.push(call);
    const handler = handlers.get(`${method} ${path}`);
    if (!handler) return jsonResponse(404, { message: `No stub for ${method} ${path}` });
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchStub);

  const stub: FetchStub = {
    calls,
    on: (route, handler) => {
      handlers.set(route, handler);
      return stub;
    },
    callsTo: (route) => calls.filter((call) => `${call.method} ${call.path}` === route),
  };
  return stub;
}
