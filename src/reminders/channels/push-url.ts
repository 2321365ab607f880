import type pg from 'pg';
import { clearPushUrl } from '../reminder-engine.queries.js';
import { resultOfStatus, type Channel, type ChannelResult, type ChannelSend } from './channel.js';
import type { GuardedPost } from '../../http/guarded-post.js';

/** A header value any HTTP stack takes: ASCII as is, anything else as an RFC 2047 encoded word (ntfy decodes it). */
export function headerText(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ').trim();
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

/**
 * `push_url`: an HTTP POST of the message to the user's URL, ntfy style: the body is the text
 * (`text/plain; charset=utf-8`), the title in `Title`, the link in `Click`, and `X-Reminder-Id` /
 * `X-Reminder-Occurrence` name the occurrence (a receiver can drop a repeat). Through the guarded POST
 * (SSRF guard, timeout). A 404 or 410 clears the push URL.
 */
export class PushUrlChannel implements Channel {
  constructor(
    private readonly poster: GuardedPost,
    private readonly pool: pg.Pool,
  ) {}

  async send({ delivery, message, link }: ChannelSend): Promise<ChannelResult> {
    const url = delivery.push_url;
    if (!url) return { status: 'failed', error: 'No push URL is set (notification settings)' };
    const headers: Record<string, string> = {
      'Content-Type': 'text/plain; charset=utf-8',
      Title: headerText(message.title),
      'X-Reminder-Id': delivery.reminder_id,
      'X-Reminder-Occurrence': delivery.occurrence_key,
    };
    if (link) headers.Click = link;
    const outcome = await this.poster.post(url, headers, Buffer.from(message.body, 'utf8'));
    if (outcome.kind === 'network-error') return outcome.retry ? { status: 'retry', error: outcome.error } : { status: 'failed', error: outcome.error };
    const { result, gone } = resultOfStatus(outcome.statusCode, outcome.body);
    if (gone) {
      await clearPushUrl(this.pool, delivery.user_id, url, new Date());
      return { status: 'failed', error: `The push URL ${(result as { error: string }).error}; it was removed from the notification settings` };
    }
    return result;
  }
}
