import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export type SendMail = (mail: Mail) => Promise<void>;

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
      await transport.sendMail({ from: options.from, ...mail });
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const dir = path.join(options.dataDir, 'mail');
  return async (mail) => {
    const info = await transport.sendMail({ from: options.from, ...mail });
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(
      dir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`,
    );
    await fs.writeFile(file, info.message as Buffer);
    options.log(`no SMTP_URL: e-mail to ${mail.to} ("${mail.subject}") written to ${file}`);
  };
}
