/** A real SMTP server on 127.0.0.1 for tests of e-mail: it keeps each message it receives, parsed. */
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createMailer, type SendMail } from '../../src/mail.ts';

export interface ReceivedMail {
  /** The envelope's recipients. */
  to: string[];
  subject: string;
  text: string;
  messageId: string | undefined;
  attachments: { filename: string | undefined; contentType: string; content: Buffer }[];
}

export interface MailServer {
  url: string;
  /** The service's mailer sending here, from `Switchboard <switchboard@example.test>`. */
  mailer(dataDir: string): SendMail;
  received: ReceivedMail[];
  /**
   * The next messages to `address` are refused with these SMTP replies, one each, in order
   * (`451 ...` passes, `550 ...` is for good); messages to others are not touched.
   */
  refuseNext(address: string, ...replies: { code: number; message: string }[]): void;
  /** Every message's RCPT TO of `address` is refused with this reply from now on (the others are taken). */
  refuseRecipient(address: string, reply: { code: number; message: string }): void;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  const refusals = new Map<string, { code: number; message: string }[]>();
  const refusedRecipients = new Map<string, { code: number; message: string }>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      const refusal = refusedRecipients.get(address.address);
      if (refusal === undefined) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((r) => r.address).find((address) => refusals.get(address)?.length);
      const refusal = to === undefined ? undefined : refusals.get(to)?.shift();
      if (refusal !== undefined) {
        // The message is read to its end before the reply, as SMTP answers DATA after the message.
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code })));
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            messageId: mail.messageId,
            attachments: mail.attachments.map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              content: a.content,
            })),
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  const url = `smtp://127.0.0.1:${port}`;
  return {
    url,
    mailer: (dataDir) =>
      createMailer({ smtpUrl: url, from: 'Switchboard <switchboard@example.test>', dataDir, log: () => {} }),
    received,
    refuseNext: (address, ...replies) => {
      refusals.set(address, [...(refusals.get(address) ?? []), ...replies]);
    },
    refuseRecipient: (address, reply) => {
      refusedRecipients.set(address, reply);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
