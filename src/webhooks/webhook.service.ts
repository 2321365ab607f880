import { deleteReported } from '../core/live/deletion-changes.queries.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import type { User } from '../accounts/user.entity.js';
import { requireFeature } from '../accounts/subscription.js';
import type { Config } from '../core/config.js';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, RuleViolationError } from '../core/errors.js';
import { isEventName } from '../core/events/event-catalog.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { refusedHost } from '../http/url-guard.js';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import type { WebhookEngine } from './webhook-engine.js';
import { failPendingDeliveries } from './webhooks.queries.js';
import { generateSecret, secretPrefixOf } from './webhook-secret.js';
import type { CreatedWebhook, WebhookTestResult } from './webhook.types.js';
import { findPage } from '../core/database/find-page.js';
import type { ServiceScope } from '../core/request-services.js';

/** The test delivery's name: not a catalog event, but a webhook may subscribe to it to receive tests. */
export const TEST_EVENT = 'test';
/** Webhooks per user. */
export const WEBHOOKS_MAX = 20;

export interface WebhookChanges {
  url?: string;
  events?: string[];
  active?: boolean;
}

export interface DeliveryFilter extends PageArgs {
  status?: WebhookDeliveryStatus | null;
  event?: string | null;
}

export function isSubscribableEvent(name: string): boolean {
  return name === TEST_EVENT || isEventName(name);
}

/**
 * Webhook management. Every operation needs the `webhooks` plan feature (403 SUBSCRIPTION_REQUIRED)
 * and reaches only the caller's webhooks: another user's answers NOT_FOUND like a missing one.
 */
export class WebhookService {
  /** Made for a request with the config and the delivery engine. */
  static forRequest(ctx: ServiceScope): WebhookService {
    return new WebhookService(ctx.em, ctx.deps.config, ctx.deps.webhooks);
  }

  constructor(
    private readonly em: EntityManager,
    private readonly config: Config,
    private readonly engine: WebhookEngine,
  ) {}

  async list(user: User, args: PageArgs): Promise<Page<WebhookEndpoint>> {
    requireFeature(user, 'webhooks');
    return findPage(this.em, WebhookEndpoint, { userId: user.id }, { createdAt: 'asc', id: 'asc' }, args);
  }

  async create(user: User, input: { url: string; events: string[] }): Promise<CreatedWebhook> {
    requireFeature(user, 'webhooks');
    const url = await this.checkUrl(input.url);
    const events = checkEvents(input.events);
    const count = await this.em.count(WebhookEndpoint, { userId: user.id });
    if (count >= WEBHOOKS_MAX) {
      throw new RuleViolationError('webhook_limit', `A user can have at most ${WEBHOOKS_MAX} webhooks`);
    }
    const secret = generateSecret();
    const endpoint = this.em.create(WebhookEndpoint, {
      userId: user.id,
      url,
      events,
      secretEncrypted: (await this.engine.secrets()).seal(secret),
      secretPrefix: secretPrefixOf(secret),
    });
    await this.em.flush();
    return {
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
      secret,
      secretPrefix: endpoint.secretPrefix,
      active: endpoint.active,
      createdAt: endpoint.createdAt,
      updatedAt: endpoint.updatedAt,
    };
  }

  async get(user: User, webhookId: string): Promise<WebhookEndpoint> {
    requireFeature(user, 'webhooks');
    const endpoint = await this.em.findOne(WebhookEndpoint, { id: webhookId, userId: user.id });
    if (!endpoint) throw new NotFoundError('Webhook');
    return endpoint;
  }

  async update(user: User, webhookId: string, changes: WebhookChanges): Promise<WebhookEndpoint> {
    const endpoint = await this.get(user, webhookId);
    const url = changes.url !== undefined ? await this.checkUrl(changes.url) : undefined;
    const events = changes.events !== undefined ? checkEvents(changes.events) : undefined;
    const pausing = changes.active === false && endpoint.active;
    await this.em.transactional(async (em) => {
      if (url !== undefined) endpoint.url = url;
      if (events !== undefined) endpoint.events = events;
      if (changes.active !== undefined) endpoint.active = changes.active;
      await em.flush();
      if (pausing) {
        // Paused: pending deliveries stop here; their retries never fire (delivery jobs find them failed).
        await failPendingDeliveries(em, endpoint.id, user.id);
      }
    });
    return endpoint;
  }

  /** Permanent: the webhook and its whole delivery history (the database cascades). */
  async delete(user: User, webhookId: string): Promise<Deleted> {
    const endpoint = await this.get(user, webhookId);
    await this.em.transactional(async (em) => {
      await deleteReported(em, user.id, WebhookEndpoint, { id: endpoint.id, userId: user.id });
    });
    return deleted(webhookId, 'Webhook');
  }

  async deliveries(user: User, webhookId: string, filter: DeliveryFilter): Promise<Page<WebhookDelivery>> {
    const endpoint = await this.get(user, webhookId);
    const where: FilterQuery<WebhookDelivery> = { webhookId: endpoint.id, userId: user.id };
    if (filter.status) where.status = filter.status;
    if (filter.event) where.event = filter.event;
    return findPage(this.em, WebhookDelivery, where, { createdAt: 'desc', id: 'desc' }, filter);
  }

  /**
   * Sends a test delivery (dummy data `{ message, timestamp }`) when the webhook subscribes to the
   * named event (default `test`) and is active; the first attempt is made within the request, later
   * attempts (after a 5xx or a timeout) follow the usual schedule.
   */
  async test(user: User, webhookId: string, eventName?: string | null): Promise<WebhookTestResult> {
    const endpoint = await this.get(user, webhookId);
    const event = eventName ?? TEST_EVENT;
    if (!isSubscribableEvent(event)) {
      throw new RuleViolationError('webhook_event', `Unknown event name: ${event}`, ['event']);
    }
    if (!endpoint.events.includes(event)) {
      return { sent: false, event, delivery: null, message: `Not sent: the webhook is not subscribed to ${event}` };
    }
    if (!endpoint.active) {
      return { sent: false, event, delivery: null, message: 'Not sent: the webhook is paused' };
    }
    const now = new Date();
    const payload = JSON.stringify({
      event,
      timestamp: now.toISOString(),
      data: { message: `Test delivery of ${event} from the life planner`, timestamp: now.toISOString() },
    });
    const delivery = this.em.create(WebhookDelivery, {
      userId: user.id,
      webhookId: endpoint.id,
      event,
      payload,
      nextAttemptAt: now,
    });
    await this.em.flush();
    await this.engine.attemptNow(delivery.id);
    await this.em.refresh(delivery);
    return { sent: true, event, delivery, message: describe(delivery) };
  }

  private async checkUrl(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw new RuleViolationError('webhook_url', 'url must be an absolute https URL', ['url']);
    }
    if (url.protocol !== 'https:') throw new RuleViolationError('webhook_url', 'url must use https', ['url']);
    if (url.username || url.password) {
      throw new RuleViolationError('webhook_url', 'url must not carry a user name or password', ['url']);
    }
    if (!this.config.webhooks.allowPrivateUrls) {
      const refused = await refusedHost(url);
      if (refused) throw new RuleViolationError('webhook_url_address', `url refused: ${refused}`, ['url']);
    }
    return url.href;
  }
}

function checkEvents(events: string[]): string[] {
  events.forEach((name, i) => {
    if (!isSubscribableEvent(name)) throw new RuleViolationError('webhook_event', `Unknown event name: ${name}`, ['events', i]);
  });
  return [...new Set(events)];
}

function describe(delivery: WebhookDelivery): string {
  const answer = delivery.responseStatusCode ? `the receiver answered ${delivery.responseStatusCode}` : delivery.lastError ?? 'no answer';
  switch (delivery.status) {
    case WebhookDeliveryStatus.success:
      return `Delivered: ${answer}`;
    case WebhookDeliveryStatus.pending:
      return `Not delivered yet: ${answer}; it will be retried`;
    default:
      return `Failed: ${answer}`;
  }
}
