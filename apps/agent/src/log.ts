import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';

// Two outputs: a log file with every event (JSON lines, for support and audits) and the terminal,
// where a person sees one status line that updates in place (or plain lines when not a TTY).

export interface AgentLog {
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
  /** Replace the live status line (progress of the current job, idle state). */
  status(text: string): void;
  close(): Promise<void>;
}

export function createAgentLog(
  logFile: string,
  terminal: NodeJS.WriteStream = process.stdout,
): AgentLog {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const file: WriteStream = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
  const isTty = terminal.isTTY;
  let statusShown = false;
  let lastStatus = '';

  function clearStatus() {
    if (isTty && statusShown) {
      terminal.write('\r\u001b[2K');
      statusShown = false;
    }
  }

  function write(
    level: 'info' | 'warn' | 'error',
    message: string,
    details?: Record<string, unknown>,
  ) {
    file.write(
      `${JSON.stringify({ time: new Date().toISOString(), level, message, ...details })}\n`,
    );
    clearStatus();
    const prefix = level === 'info' ? '' : `${level.toUpperCase()}: `;
    terminal.write(`${prefix}${message}\n`);
    if (isTty && lastStatus) {
      terminal.write(lastStatus);
      statusShown = true;
    }
  }

  return {
    info: (message, details) => write('info', message, details),
    warn: (message, details) => write('warn', message, details),
    error: (message, details) => write('error', message, details),
    status(text) {
      if (text === lastStatus) return;
      lastStatus = text;
      if (isTty) {
        const width = terminal.columns;
        terminal.write(
          `\r\u001b[2K${text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text}`,
        );
        statusShown = true;
      } else {
        terminal.write(`${text}\n`);
      }
    },
    close: () =>
      new Promise((resolve) => {
        clearStatus();
        file.end(resolve);
      }),
  };
}
