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
 * log at info level so whoever runs the server can still follow it; a warning at start-up says
 * so. With NODE_ENV=production a reset link is a credential that must not sit in logs: the email
 * is dropped and only the fact (recipient and subject) is logged, as a warning.
 */
export function createLogMailer(
  logger: FastifyBaseLogger,
  { isProduction = false }: { isProduction?: boolean } = {},
): Mailer {
  logger.warn(
    isProduction
      ? 'SMTP_URL is not set: with NODE_ENV=production, emails (password reset links included) ' +
          'are dropped, never written to the log. Set SMTP_URL to deliver them.'
      : 'SMTP_URL is not set: emails, password reset links included, are written to this log ' +
          'at info level instead of being sent. Fine for local use only: whoever reads the log ' +
          'can reset those passwords. Set SMTP_URL, or NODE_ENV=production to keep them out.',
  );
  return {
    send(message) {
      const mail = { to: message.to, subject: message.subject };
      if (isProduction) {
        logger.warn({ mail }, 'SMTP_URL is not set, so this email was not sent');
      } else {
        logger.info(
          { mail },
          `SMTP_URL is not set, so this email was written to the log instead of sent:\n${message.text}`,
        );
      }
      return Promise.resolve();
    },
  };
}
