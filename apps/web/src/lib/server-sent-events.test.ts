import { describe, expect, it } from 'vitest';
import { readServerSentEvents, type ServerSentEvent } from './server-sent-events';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function readAll(chunks: string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(streamOf(chunks))) events.push(event);
  return events;
}

describe('readServerSentEvents', () => {
  it('reads named events, skips comments and retry lines', async () => {
    expect(
      await readAll([
        'retry: 1000\n\n',
        'event: ready\ndata: {}\n\n',
        ': keep-alive\n\n',
        'event: change\ndata: {"kind":"job","id":"1"}\n\n',
      ]),
    ).toEqual([
      { event: 'ready', data: '{}' },
      { event: 'change', data: '{"kind":"job","id":"1"}' },
    ]);
  });

  it('joins events split across chunks and data lines, with CRLF endings', async () => {
    expect(
      await readAll(['event: cha', 'nge\r\ndata: a\r\nda', 'ta: b\r\n\r\ndata: c\n', '\n']),
    ).toEqual([
      { event: 'change', data: 'a\nb' },
      { event: 'message', data: 'c' },
    ]);
  });

  it('drops an unfinished event when the stream ends', async () => {
    expect(await readAll(['event: change\ndata: x\n'])).toEqual([]);
  });
});
