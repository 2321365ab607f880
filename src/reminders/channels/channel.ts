import type { ReminderMessage } from '../reminder-kind.js';
import type { ClaimedDelivery, StoredPushSubscription } from '../reminder-engine.queries.js';

/** What a channel needs to send one occurrence. */
export interface ChannelSend {
  delivery: ClaimedDelivery;
  message: ReminderMessage;
  /** Where tapping it goes: a deep link into APP_URL's rich client, or the service's `/` page (app-links.ts). */
  link: string | null;
  /** For web_push: the user's current subscriptions. */
  subscriptions: StoredPushSubscription[];
}

/** sent (2xx), retry (a 5xx, 429, timeout or network error: worth another attempt), failed (no retry). */
export type ChannelResult = { status: 'sent'; note?: string } | { status: 'retry'; error: string } | { status: 'failed'; error: string };

export interface Channel {
  send(work: ChannelSend): Promise<ChannelResult>;
}

/**
 * An HTTP answer as a channel result: 2xx sent; 429 and 5xx worth a retry; 404 and 410 mean the
 * destination is gone (`gone`: the caller drops it); any other (3xx: redirects are not followed, 4xx) failed.
 */
export function resultOfStatus(statusCode: number, body: string): { result: ChannelResult; gone: boolean } {
  if (statusCode >= 200 && statusCode < 300) return { result: { status: 'sent' }, gone: false };
  const error = `answered ${statusCode}${body ? `: ${body.slice(0, 200)}` : ''}`;
  if (statusCode === 404 || statusCode === 410) return { result: { status: 'failed', error }, gone: true };
  if (statusCode === 429 || statusCode >= 500) return { result: { status: 'retry', error }, gone: false };
  return { result: { status: 'failed', error }, gone: false };
}
