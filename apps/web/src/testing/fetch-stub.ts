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
  /** Every call except the live-update stream (see `sendEvent`). */
  calls: RecordedCall[];
  /** Sends a server-sent event on the open GET /api/events streams of signed-in pages. */
  sendEvent: (event: string, data: unknown) => void;
  /** Answers "METHOD /path" with the handler (later registrations win). */
  on: (route: string, handler: Handler) => FetchStub;
  /** Calls made to "METHOD /path". */
  callsTo: (route: string) => RecordedCall[];
}

/** Replaces global fetch for the current test (vitest's unstubGlobals restores it). */
export function stubFetch(): FetchStub {
  const handlers = new Map<string, Handler>();
  const calls: RecordedCall[] = [];
  const encoder = new TextEncoder();
  const eventStreams = new Set<ReadableStreamDefaultController<Uint8Array>>();

  /** Every signed-in page follows GET /api/events: an open stream that sends what tests push. */
  function eventStream(signal: AbortSignal | null | undefined): Response {
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(streamController) {
        controller = streamController;
        eventStreams.add(streamController);
        streamController.enqueue(encoder.encode('event: ready\ndata: {}\n\n'));
      },
    });
    signal?.addEventListener('abort', () => {
      if (!controller) return;
      eventStreams.delete(controller);
      controller.error(new DOMException('Aborted', 'AbortError'));
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  }

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = new URL(url, 'http://localhost').pathname;
    if (method === 'GET' && path === '/api/events' && !handlers.has('GET /api/events')) {
      return eventStream(init?.signal);
    }
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
    sendEvent: (event, data) => {
      const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      for (const controller of eventStreams) controller.enqueue(encoder.encode(text));
    },
    on: (route, handler) => {
      handlers.set(route, handler);
      return stub;
    },
    callsTo: (route) => calls.filter((call) => `${call.method} ${call.path}` === route),
  };
  return stub;
}
