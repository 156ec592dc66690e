import type { MailMessage, Mailer } from '../../src/mail/mailer.ts';

export interface RecordingMailer extends Mailer {
  readonly messages: MailMessage[];
  /** The reset token of the last email sent to `to`. */
  lastResetToken(to: string): string;
}

/** Keeps what would have been sent; the message is recorded when send() is called. */
export function createRecordingMailer(): RecordingMailer {
  const messages: MailMessage[] = [];
  return {
    messages,
    send(message) {
      messages.push(message);
      return Promise.resolve();
    },
    lastResetToken(to) {
      const message = messages.filter((candidate) => candidate.to === to).at(-1);
      const token = message && /[?&]token=([^\s&]+)/.exec(message.text)?.[1];
      if (!token) throw new Error(`No reset email was sent to ${to}`);
      return decodeURIComponent(token);
    },
  };
}
