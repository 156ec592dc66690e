/** One event of a text/event-stream: its name (`message` when unnamed) and its data lines. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Reads server-sent events from a response body as they arrive (the HTML spec's parsing rules:
 * blank line ends an event, `:` lines are comments, `data` lines join with newlines). Ends when
 * the stream ends; throws when reading fails or `signal` aborts.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let eventName = '';
  let dataLines: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split(/\r\n|\r|\n/);
      // The last piece may be an unfinished line: keep it for the next chunk.
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (dataLines.length > 0)
            yield { event: eventName || 'message', data: dataLines.join('\n') };
          eventName = '';
          dataLines = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') eventName = value;
        else if (field === 'data') dataLines.push(value);
      }
    }
  } finally {
    reader.releaseLock();
  }
}
