/** The delivery rules every part of the engine (and the webhooks' own SQL) shares. */

export const DELIVERY_JOB = 'webhook-delivery';
/** Operations.md: at most 5 attempts in all — at once, then after 1, 2, 4 and 8 backoff units. */
export const MAX_ATTEMPTS = 5;
export const PAUSED_ERROR = 'Webhook paused: the delivery was stopped';

/** Wait before attempt `next` (2…5): 1, 2, 4, 8 units. */
export function backoffBefore(next: number, unitMs: number): number {
  return unitMs * 2 ** (next - 2);
}

export interface DeliveryAttempt {
  /** webhook_deliveries.id */
  id: string;
  /** The attempt to make (1-based). */
  attempt: number;
}

/**
 * One Agenda job carries the attempts that are due together: the first attempts of one dispatch
 * batch (fewer jobs under load, so throughput grows with it), or a single retry.
 */
export interface DeliveryJobData {
  deliveries: DeliveryAttempt[];
}
