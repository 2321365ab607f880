import { createHash } from 'node:crypto';
import type pg from 'pg';
import { dropPushSubscriptions } from '../reminder-engine.queries.js';
import type { VapidKeys } from '../vapid-keys.js';
import { resultOfStatus, type Channel, type ChannelResult, type ChannelSend } from './channel.js';
import type { GuardedPost } from '../../http/guarded-post.js';

/** How long a signed VAPID token is used (RFC 8292 allows up to 24 h); a new one is made an hour before it ends. */
const VAPID_TOKEN_S = 12 * 3600;
/** A payload stays well inside the 4 KB a push service must accept (RFC 8291: 4096 octets with the overhead). */
const PAYLOAD_MAX_BYTES = 3000;

export interface WebPushOptions {
  keys: Promise<VapidKeys>;
  subject: string;
  ttlSeconds: number;
}

/**
 * `web_push`: RFC 8030 push messages to every subscription of the user, the payload encrypted to each
 * subscription's keys (RFC 8291, aes128gcm) and the request signed with our VAPID key (RFC 8292,
 * `Authorization: vapid t=…, k=…`), with `TTL`, `Urgency: normal` and a `Topic` per reminder (a newer
 * occurrence replaces one the push service still holds). The `web-push` library encrypts and signs; the
 * request goes through our guarded poster (SSRF guard, timeout, no redirects). A subscription answering
 * 404 or 410 is removed. Sent when any subscription took it; retried when none did and one may later.
 */
export class WebPushChannel implements Channel {
  private readonly tokens = new Map<string, { authorization: string; until: number }>();

  constructor(
    private readonly poster: GuardedPost,
    private readonly pool: pg.Pool,
    private readonly options: WebPushOptions,
  ) {}

  async send({ delivery, message, link, subscriptions }: ChannelSend): Promise<ChannelResult> {
    if (!subscriptions.length) return { status: 'failed', error: 'No push subscription is registered' };
    const payload = payloadOf({
      title: message.title,
      body: message.body,
      url: link,
      tag: `${delivery.reminder_id}:${delivery.occurrence_key}`,
      reminderId: delivery.reminder_id,
      occurrenceKey: delivery.occurrence_key,
      dueAt: new Date(delivery.due_at).toISOString(),
    });
    const webpush = await loadWebPush();
    const topic = createHash('sha256').update(delivery.reminder_id).digest('base64url').slice(0, 32);
    const results = await Promise.all(
      subscriptions.map(async (subscription) => {
        try {
          const { cipherText } = webpush.encrypt(subscription.p256dh, subscription.auth, payload, 'aes128gcm');
          const headers = {
            TTL: String(this.options.ttlSeconds),
            Urgency: 'normal',
            Topic: topic,
            'Content-Type': 'application/octet-stream',
            'Content-Encoding': 'aes128gcm',
            Authorization: await this.authorization(subscription.endpoint),
          };
          const outcome = await this.poster.post(subscription.endpoint, headers, cipherText);
          if (outcome.kind === 'network-error') {
            const result: ChannelResult = outcome.retry ? { status: 'retry', error: outcome.error } : { status: 'failed', error: outcome.error };
            return { id: subscription.id, result, gone: false };
          }
          return { id: subscription.id, ...resultOfStatus(outcome.statusCode, outcome.body) };
        } catch (error) {
          const result: ChannelResult = { status: 'failed', error: `cannot encrypt or sign: ${(error as Error).message}` };
          return { id: subscription.id, result, gone: false };
        }
      }),
    );
    const gone = results.filter((r) => r.gone).map((r) => r.id);
    await dropPushSubscriptions(this.pool, gone);
    const errors = results.filter((r) => r.result.status !== 'sent').map((r) => (r.result as { error: string }).error);
    const sent = results.filter((r) => r.result.status === 'sent').length;
    const dropped = gone.length ? `; ${gone.length} subscription(s) gone (404/410) removed` : '';
    if (sent) return { status: 'sent', note: errors.length ? `sent to ${sent} of ${results.length}: ${errors[0]}${dropped}` : undefined };
    const retry = results.some((r) => r.result.status === 'retry');
    const error = `${errors[0] ?? 'not sent'}${dropped}`;
    return retry ? { status: 'retry', error } : { status: 'failed', error };
  }

  /** The VAPID Authorization header for a push service's origin, signed once per origin and reused for hours. */
  private async authorization(endpoint: string): Promise<string> {
    const audience = new URL(endpoint).origin;
    const now = Math.floor(Date.now() / 1000);
    const cached = this.tokens.get(audience);
    if (cached && cached.until - now > 3600) return cached.authorization;
    const keys = await this.options.keys;
    const until = now + VAPID_TOKEN_S;
    const { Authorization } = (await loadWebPush()).getVapidHeaders(audience, this.options.subject, keys.publicKey, keys.privateKey, 'aes128gcm', until);
    if (this.tokens.size > 1000) this.tokens.clear();
    this.tokens.set(audience, { authorization: Authorization, until });
    return Authorization;
  }
}

/** `web-push` (and its ASN.1 and big-number code, ~3 MB of an idle process) loads with the first push sent. */
async function loadWebPush() {
  return (await import('web-push')).default;
}

/** The JSON payload, its body shortened until it fits. */
function payloadOf(data: { title: string; body: string } & Record<string, unknown>): Buffer {
  let body = data.body;
  for (;;) {
    const bytes = Buffer.from(JSON.stringify({ ...data, body }), 'utf8');
    if (bytes.length <= PAYLOAD_MAX_BYTES || body.length === 0) return bytes;
    body = `${body.slice(0, Math.floor(body.length * 0.8)).trimEnd()}…`;
  }
}
