/**
 * Mail to dashboard users: the one-time codes that prove an e-mail address (email-codes.ts). A
 * `MailSender` delivers one message; which one the gateway uses is DASHBOARD_MAIL_SENDER. The
 * built-in `log` sender writes the message, code included, to the process log at `info` (in
 * development, `npm start` prints it). Anyone who reads that log can use the codes: a deployment
 * that signs up people it does not know plugs in a sender that mails (SMTP, a mail API's webhook)
 * by implementing this interface and passing it to `Accounts`.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** What the message is for (`verify`, `reset`), for the sender's logs and metrics. */
  purpose: string;
}

export interface MailSender {
  /** Its name, as DASHBOARD_MAIL_SENDER selects it. */
  readonly name: string;
  /** Delivers (or hands over) one message; rejects when it could not. */
  send(message: MailMessage): Promise<void>;
}

/** The part of a process logger the `log` sender uses (pino's `info`). */
export interface MailLog {
  info(fields: object, message: string): void;
}

/** Writes each message to the process log, code and all: for development and hand-relayed codes. */
export class LogMailSender implements MailSender {
  readonly name = 'log';
  private readonly log: MailLog;

  constructor(log: MailLog) {
    this.log = log;
  }

  async send(message: MailMessage): Promise<void> {
    this.log.info(
      { mail: { to: message.to, subject: message.subject, purpose: message.purpose, text: message.text } },
      `mail to ${message.to}: ${message.subject}`,
    );
  }
}

/** The names DASHBOARD_MAIL_SENDER accepts. */
export const MAIL_SENDERS = ['log'] as const;
export type MailSenderName = (typeof MAIL_SENDERS)[number];

/** The built-in sender of a DASHBOARD_MAIL_SENDER name. */
export function builtInMailSender(name: MailSenderName, log: MailLog): MailSender {
  switch (name) {
    case 'log':
      return new LogMailSender(log);
  }
}
