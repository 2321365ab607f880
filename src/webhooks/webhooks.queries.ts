import type { EntityManager } from '@mikro-orm/postgresql';
import { PAUSED_ERROR } from './delivery-rules.js';

/** The webhooks' hand-written SQL on the request's entity manager (the engine has its own pool). */

/** A paused webhook's pending deliveries stop here: failed with a note, their retries never fire. */
export async function failPendingDeliveries(em: EntityManager, webhookId: string, userId: string): Promise<void> {
  const now = new Date();
  await em.execute(
    `update webhook_deliveries set status = 'failed', next_attempt_at = null, completed_at = ?, updated_at = ?,
       last_error = coalesce(last_error || ' — ', '') || ?
     where webhook_id = ? and user_id = ? and status = 'pending'`,
    [now, now, PAUSED_ERROR, webhookId, userId],
  );
}
