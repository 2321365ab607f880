import type { Mailer } from '../../mail/mailer.js';
import type { Channel, ChannelResult, ChannelSend } from './channel.js';

/**
 * `email`: the message to the account's address through the app's mailer (SMTP_URL, or an .eml file in
 * MAIL_OUTBOX_DIR). Only to a verified address: a reminder never mails an address nobody proved is theirs.
 */
export class EmailChannel implements Channel {
  constructor(
    private readonly mailer: Mailer,
    private readonly baseUrl: () => string,
    /** The send's bound (inside the delivery's lease). */
    private readonly sendMs: number,
  ) {}

  async send({ delivery, message, link }: ChannelSend): Promise<ChannelResult> {
    if (!delivery.email_verified) return { status: 'failed', error: "The account's email address is not verified" };
    const lines = [message.body, ''];
    if (link) lines.push(`Open: ${link}`, '');
    lines.push(`You asked for this reminder in Life Planner. Change or delete it: ${this.baseUrl()}/api/v1/reminders/${delivery.reminder_id}`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from the mail server within ${this.sendMs / 1000} s`)), this.sendMs);
    });
    try {
      await Promise.race([this.mailer.send({ to: delivery.email, subject: message.title, text: lines.join('\n') }), timeout]);
      return { status: 'sent' };
    } catch (error) {
      return { status: 'retry', error: `mail not sent: ${(error as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
  }
}
