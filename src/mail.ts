import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';

export interface Mail {
  /** One address, or several who all see each other (one client's people). */
  to: string | readonly string[];
  subject: string;
  text: string;
  attachments?: readonly { filename: string; content: Buffer; contentType: string }[];
  /**
   * The message's Message-ID, the same on every try of one e-mail: a retry after a try the
   * server took but did not confirm can then be told apart as a copy by the receiving side.
   */
  messageId?: string;
}

/**
 * What the mail server did with an e-mail it took: the addresses it refused (the others got it),
 * each with its answer. A server that takes no address throws instead.
 */
export interface MailSent {
  refused: { address: string; reason: string }[];
}

export type SendMail = (mail: Mail) => Promise<MailSent>;

/**
 * Sends e-mail through SMTP_URL; without it, writes each message as an .eml file under
 * DATA_DIR/mail and logs where, so a local install still shows what would have been sent.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: (message: string) => void;
}): SendMail {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return async (mail) => {
      const info = await transport.sendMail(message(options.from, mail));
      const errors = (info as { rejectedErrors?: { recipient?: string; response?: string; message: string }[] })
        .rejectedErrors;
      return {
        refused: (errors ?? []).map((e) => ({ address: e.recipient ?? '', reason: e.response ?? e.message })),
      };
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const dir = path.join(options.dataDir, 'mail');
  return async (mail) => {
    const info = await transport.sendMail(message(options.from, mail));
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(
      dir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`,
    );
    await fs.writeFile(file, info.message as Buffer);
    options.log(`no SMTP_URL: e-mail to ${[mail.to].flat().join(', ')} ("${mail.subject}") written to ${file}`);
    return { refused: [] };
  };
}

function message(from: string, mail: Mail): SendMailOptions {
  return {
    from,
    to: [mail.to].flat(),
    subject: mail.subject,
    text: mail.text,
    ...(mail.attachments === undefined ? {} : { attachments: mail.attachments.map((a) => ({ ...a })) }),
    ...(mail.messageId === undefined ? {} : { messageId: mail.messageId }),
  };
}
