import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** How the server sends email; tests pass their own to read what would have been sent. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close?(): void;
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}

/**
 * Without SMTP_URL (development, a first trial run) the email, reset link included, goes to the
 * log at info level so whoever runs the server can still follow it.
 */
export function createLogMailer(logger: FastifyBaseLogger): Mailer {
  return {
    send(message) {
      logger.info(
        { mail: { to: message.to, subject: message.subject } },
        `SMTP_URL is not set, so this email was written to the log instead of sent:\n${message.text}`,
      );
      return Promise.resolve();
    },
  };
}
