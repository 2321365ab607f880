import { deleteReported } from '../core/live/deletion-changes.queries.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { ServiceScope } from '../core/request-services.js';
import type { Config } from '../core/config.js';
import { findPage } from '../core/database/find-page.js';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, RuleViolationError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { refusedHost } from '../http/url-guard.js';
import { NotificationSettings } from './notification-settings.entity.js';
import { PushSubscription } from './push-subscription.entity.js';

/** Push subscriptions per user (a browser or device each); a send reaches at most this many. */
export const PUSH_SUBSCRIPTIONS_MAX = 20;

export interface NewPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  expirationTime?: number | null;
}

/** Absent leaves a setting as it is; null clears it. */
export interface NotificationSettingsChanges {
  pushUrl?: string | null;
  quietHoursStart?: string | null;
  quietHoursEnd?: string | null;
}

/**
 * Where reminders reach a user: Web Push subscriptions (the browser's PushSubscription, registered
 * through the API; the VAPID public key to subscribe with), the push URL and quiet hours. Scoped by
 * owner: another user's subscription answers NOT_FOUND like a missing one. URLs a user gives (a push
 * service endpoint, a push URL) pass the SSRF guard (src/http/url-guard.ts) here and again at every send,
 * unless REMINDER_ALLOW_PRIVATE_URLS.
 */
export class NotificationService {
  static forRequest(ctx: ServiceScope): NotificationService {
    return new NotificationService(ctx.em, ctx.deps.config, () => ctx.deps.reminders.vapidPublicKey());
  }

  constructor(
    private readonly em: EntityManager,
    private readonly config: Config,
    private readonly publicKey: () => Promise<string>,
  ) {}

  vapidPublicKey(): Promise<string> {
    return this.publicKey();
  }

  subscriptions(userId: string, args: PageArgs): Promise<Page<PushSubscription>> {
    return findPage(this.em, PushSubscription, { userId }, { createdAt: 'asc', id: 'asc' }, args);
  }

  /** Registers a browser's subscription; the same endpoint again replaces its keys. Answers whether it was new. */
  async subscribe(userId: string, input: NewPushSubscription): Promise<{ subscription: PushSubscription; created: boolean }> {
    const endpoint = await this.checkUrl(input.endpoint, 'endpoint', ['https:']);
    checkKey(input.keys.p256dh, 'keys.p256dh', 65, (bytes) => bytes[0] === 0x04);
    checkKey(input.keys.auth, 'keys.auth', 16);
    const expiresAt = input.expirationTime === undefined || input.expirationTime === null ? null : new Date(input.expirationTime);
    if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new RuleViolationError('push_subscription', 'expirationTime must be a time in milliseconds', ['expirationTime']);
    const existing = await this.em.findOne(PushSubscription, { userId, endpoint });
    if (existing) {
      existing.p256dh = input.keys.p256dh;
      existing.auth = input.keys.auth;
      existing.expiresAt = expiresAt;
      await this.em.flush();
      return { subscription: existing, created: false };
    }
    if ((await this.em.count(PushSubscription, { userId })) >= PUSH_SUBSCRIPTIONS_MAX) {
      throw new RuleViolationError('push_subscription_limit', `A user can register at most ${PUSH_SUBSCRIPTIONS_MAX} push subscriptions`);
    }
    const subscription = this.em.create(PushSubscription, { userId, endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, expiresAt });
    try {
      await this.em.flush();
    } catch (error) {
      // The same browser registering twice at once: one row, the later keys.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      this.em.clear();
      return this.subscribe(userId, input);
    }
    return { subscription, created: true };
  }

  async unsubscribe(userId: string, subscriptionId: string): Promise<Deleted> {
    const subscription = await this.em.findOne(PushSubscription, { id: subscriptionId, userId });
    if (!subscription) throw new NotFoundError('Push subscription');
    await this.em.transactional(async (em) => {
      await deleteReported(em, userId, PushSubscription, { id: subscription.id, userId });
    });
    return deleted(subscriptionId, 'Push subscription');
  }

  /** The settings (a fresh user's: no push URL, no quiet hours); the row is made on first read or write, so its id is stable. */
  async settings(userId: string): Promise<NotificationSettings> {
    const existing = await this.em.findOne(NotificationSettings, { userId });
    if (existing) return existing;
    await this.ensureRow(userId);
    return this.em.findOneOrFail(NotificationSettings, { userId });
  }

  async updateSettings(userId: string, changes: NotificationSettingsChanges): Promise<NotificationSettings> {
    const pushUrl = changes.pushUrl ? await this.checkUrl(changes.pushUrl, 'pushUrl', ['https:', 'http:']) : changes.pushUrl;
    await this.ensureRow(userId);
    // The row lock applies concurrent partial changes one after the other, each keeping the other's fields.
    return this.em.transactional(async (em) => {
      const settings = await em.findOneOrFail(NotificationSettings, { userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (pushUrl !== undefined) settings.pushUrl = pushUrl;
      if (changes.quietHoursStart !== undefined) settings.quietHoursStart = changes.quietHoursStart;
      if (changes.quietHoursEnd !== undefined) settings.quietHoursEnd = changes.quietHoursEnd;
      if (Boolean(settings.quietHoursStart) !== Boolean(settings.quietHoursEnd)) {
        const missing = settings.quietHoursStart ? 'quietHoursEnd' : 'quietHoursStart';
        throw new RuleViolationError('quiet_hours', 'quietHoursStart and quietHoursEnd are set together (null both to turn quiet hours off)', [missing]);
      }
      if (settings.quietHoursStart && settings.quietHoursStart === settings.quietHoursEnd) {
        throw new RuleViolationError('quiet_hours', 'quietHoursEnd must differ from quietHoursStart', ['quietHoursEnd']);
      }
      return settings;
    });
  }

  /** Makes the user's row; two first writes racing each other make one row. */
  private async ensureRow(userId: string): Promise<void> {
    if (await this.em.count(NotificationSettings, { userId })) return;
    const fork = this.em.fork();
    fork.create(NotificationSettings, { userId });
    try {
      await fork.flush();
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
  }

  /** An absolute URL of an allowed scheme, without user name or password, whose host passes the SSRF guard. */
  private async checkUrl(raw: string, field: string, protocols: string[]): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw new RuleViolationError('notification_url', `${field} must be an absolute ${protocols.join(' or ')} URL`, [field]);
    }
    if (!protocols.includes(url.protocol)) throw new RuleViolationError('notification_url', `${field} must use ${protocols.map((p) => p.slice(0, -1)).join(' or ')}`, [field]);
    if (url.username || url.password) throw new RuleViolationError('notification_url', `${field} must not carry a user name or password`, [field]);
    if (!this.config.reminders.allowPrivateUrls) {
      const refused = await refusedHost(url);
      if (refused) throw new RuleViolationError('notification_url_address', `${field} refused: ${refused}`, [field]);
    }
    return url.href;
  }
}

function checkKey(value: string, field: string, bytes: number, valid: (key: Buffer) => boolean = () => true): void {
  const key = /^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value.replace(/=+$/, ''), 'base64url') : null;
  if (!key || key.length !== bytes || !valid(key)) {
    throw new RuleViolationError('push_subscription', `${field} must be the base64url encoding of ${bytes} bytes${bytes === 65 ? ' (an uncompressed P-256 point)' : ''}`, field.split('.'));
  }
}
