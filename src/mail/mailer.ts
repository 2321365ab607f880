import type { Transporter } from 'nodemailer';
import { mkdir, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /**
   * With SMTP_URL: connects, greets and authenticates as a send would, then quits (nodemailer's
   * verify(), each step within `timeoutMs`); rejects when the server cannot be used. Absent without SMTP.
   */
  verify?(timeoutMs: number): Promise<void>;
}

const FROM = 'Life Planner <no-reply@life-planner.local>';

/**
 * Sends over SMTP_URL when set; otherwise writes each mail as an .eml file into the outbox folder.
 * nodemailer is loaded with the first mail (issue 18: nothing at start needs it).
 */
export function createMailer(options: { smtpUrl?: string; outboxDir: string }): Mailer {
  let loading: Promise<Transporter> | undefined;
  const transporter = () =>
    (loading ??= import('nodemailer').then(({ default: nodemailer }) =>
      options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  const smtpUrl = options.smtpUrl;
  if (smtpUrl) {
    return {
      async send(mail) {
        await (await transporter()).sendMail({ from: FROM, ...mail });
      },
      async verify(timeoutMs) {
        const { default: nodemailer } = await import('nodemailer');
        // A transporter of its own: the sending one keeps nodemailer's minute-long timeouts.
        const probe = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
        try {
          await probe.verify();
        } finally {
          probe.close();
        }
      },
    };
  }
  return {
    async send(mail) {
      const info = await (await transporter()).sendMail({ from: FROM, ...mail });
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      await writeFile(join(options.outboxDir, name), info.message as Buffer);
    },
  };
}

declare module '../core/context.js' {
  interface AppDeps {
    mailer: Mailer;
  }
}
