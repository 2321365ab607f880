import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookAttempt } from './webhook-delivery.entity.js';
import type { WebhookStats } from './webhook.types.js';

/**
 * Per-request loaders of the webhooks module, keyed by ids the caller reached through an owner-checked
 * read (their webhooks, their deliveries).
 */
export function createWebhooksLoaders(em: EntityManager) {
  return {
    /** Delivery counts per webhook and status: one grouped query for the whole list. */
    statsByWebhookId: new DataLoader<string, WebhookStats>(async (ids) => {
      const rows: { webhook_id: string; total: number; success: number; failed: number; pending: number }[] = await em.execute(
        `select webhook_id,
                count(*)::int as total,
                (count(*) filter (where status = 'success'))::int as success,
                (count(*) filter (where status = 'failed'))::int as failed,
                (count(*) filter (where status = 'pending'))::int as pending
           from webhook_deliveries where webhook_id in (${ids.map(() => '?').join(', ')})
          group by webhook_id`,
        [...ids],
      );
      const byId = new Map(rows.map((r) => [r.webhook_id, r]));
      return ids.map((id) => {
        const r = byId.get(id);
        return { total: r?.total ?? 0, success: r?.success ?? 0, failed: r?.failed ?? 0, pending: r?.pending ?? 0 };
      });
    }),

    /** The attempts of each delivery, in order; one query for a page of deliveries. */
    attemptsByDeliveryId: new DataLoader<string, WebhookAttempt[]>(async (ids) => {
      const rows = await em.find(WebhookAttempt, { webhookDeliveryId: { $in: [...ids] } }, { orderBy: { attempt: 'asc' } });
      const groups = new Map<string, WebhookAttempt[]>(ids.map((id) => [id, []]));
      for (const row of rows) groups.get(row.webhookDeliveryId)?.push(row);
      return ids.map((id) => groups.get(id)!);
    }),
  };
}

export type WebhooksLoaders = ReturnType<typeof createWebhooksLoaders>;
