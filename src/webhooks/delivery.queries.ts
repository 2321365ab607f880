import type pg from 'pg';
import { namedParameters } from '../core/database/named-parameters.js';
import { MAX_ATTEMPTS, PAUSED_ERROR, type DeliveryAttempt } from './delivery-rules.js';

/**
 * The delivery engine's SQL, on its own pool (dispatch and attempts never queue behind HTTP requests
 * for the ORM's connections). Every statement names its parameters.
 */
export type Queryable = pg.Pool | pg.PoolClient;

async function rows<R extends pg.QueryResultRow>(db: Queryable, text: string, values: Record<string, unknown> = {}): Promise<R[]> {
  const statement = namedParameters(text, values);
  return (await db.query<R>(statement.text, statement.values)).rows;
}

export const NOTIFY_CHANNEL = 'lp_event_outbox';
/**
 * The notify trigger function's body (a start compares it with the installed one): only events some
 * active endpoint subscribes to wake the dispatcher (`inserted_events`: the statement's new rows).
 */
const NOTIFY_FUNCTION_BODY = `begin
  if exists (select 1 from inserted_events i
               join webhook_endpoints e on e.user_id = i.user_id and e.active and i.event = any(e.events)) then
    perform pg_notify('${NOTIFY_CHANNEL}', '');
  end if;
  return null;
end`;

/** Whether the statement-level notify trigger is installed exactly as this version writes it. */
export async function notifyTriggerInstalled(db: Queryable): Promise<boolean> {
  const found = await rows(
    db,
    `select 1 from pg_trigger t join pg_proc p on p.oid = t.tgfoid
      where t.tgrelid = 'event_outbox'::regclass and t.tgname = 'lp_event_outbox_notify'
        and t.tgtype = 4 -- AFTER INSERT, FOR EACH STATEMENT
        and t.tgenabled = 'O' and t.tgnewtable = 'inserted_events'
        and p.proname = 'lp_event_outbox_notify' and p.prosrc = :body`,
    { body: NOTIFY_FUNCTION_BODY },
  );
  return found.length > 0;
}

/** (Re)creates the trigger; run inside a transaction (the advisory lock keeps two starts apart). */
export async function installNotifyTrigger(client: pg.PoolClient): Promise<void> {
  await client.query(`select pg_advisory_xact_lock(hashtext('lp_event_outbox_notify'))`);
  await client.query(`create or replace function lp_event_outbox_notify() returns trigger language plpgsql as $fn$${NOTIFY_FUNCTION_BODY}$fn$`);
  await client.query(`create or replace trigger lp_event_outbox_notify after insert on event_outbox
    referencing new table as inserted_events
    for each statement execute function lp_event_outbox_notify()`);
}

export interface OutboxEvent {
  id: string;
  user_id: string;
  event: string;
  data: Record<string, unknown>;
  occurred_at: Date;
  /** The ids of the user's active endpoints subscribed to the event, oldest first. */
  endpoints: string[];
}

/** Locks a batch of undispatched outbox rows (other instances skip them), each with its subscribed endpoints. */
export function lockUndispatchedEvents(client: pg.PoolClient, limit: number): Promise<OutboxEvent[]> {
  return rows<OutboxEvent>(
    client,
    `with ev as (
       select id, user_id, event, data, occurred_at from event_outbox
        where dispatched_at is null order by occurred_at, id limit :limit for update skip locked
     )
     select ev.*, array(select e.id from webhook_endpoints e
                         where e.user_id = ev.user_id and e.active and ev.event = any(e.events)
                         order by e.created_at, e.id) as endpoints
       from ev`,
    { limit },
  );
}

export interface NewDelivery {
  id: string;
  userId: string;
  webhookId: string;
  deliveryId: string;
  event: string;
  payload: string;
}

/** Inserts the deliveries (pending, due now) and marks the outbox rows dispatched, in one statement. */
export async function insertDeliveriesAndMarkDispatched(client: pg.PoolClient, deliveries: NewDelivery[], eventIds: string[], now: Date): Promise<void> {
  await rows(
    client,
    `with inserted as (
       insert into webhook_deliveries (id, created_at, updated_at, user_id, webhook_id, delivery_id, event, payload, status, attempts, next_attempt_at)
       select t.id, :now, :now, t.user_id, t.webhook_id, t.delivery_id, t.event, t.payload, 'pending', 0, :now
         from unnest(:ids::uuid[], :users::uuid[], :webhooks::uuid[], :deliveryIds::uuid[], :events::text[], :payloads::text[])
           as t(id, user_id, webhook_id, delivery_id, event, payload)
       returning 1
     )
     update event_outbox set dispatched_at = :now where id = any(:eventIds::uuid[])`,
    {
      now,
      ids: deliveries.map((d) => d.id),
      users: deliveries.map((d) => d.userId),
      webhooks: deliveries.map((d) => d.webhookId),
      deliveryIds: deliveries.map((d) => d.deliveryId),
      events: deliveries.map((d) => d.event),
      payloads: deliveries.map((d) => d.payload),
      eventIds,
    },
  );
}

export interface ClaimedAttempt {
  user_id: string;
  delivery_id: string;
  event: string;
  payload: string;
  url: string;
  secret_encrypted: string;
}

/**
 * Claims attempt `attempt` of a delivery, once across all instances: `attempts` moves from attempt-1 to
 * attempt while the delivery is pending, due and its webhook active; `next_attempt_at` holds the lease.
 */
export async function claimAttempt(db: Queryable, id: string, attempt: number, now: Date, lease: Date): Promise<ClaimedAttempt | undefined> {
  const claimed = await rows<ClaimedAttempt>(
    db,
    `update webhook_deliveries d
       set attempts = d.attempts + 1, next_attempt_at = :lease, last_attempt_at = :now, updated_at = :now
     from webhook_endpoints e
     where d.id = :id and d.status = 'pending' and d.attempts = :previous and d.attempts < :maxAttempts and d.next_attempt_at <= :now
       and e.id = d.webhook_id and e.active
     returning d.user_id, d.delivery_id, d.event, d.payload, e.url, e.secret_encrypted`,
    { id, lease, now, previous: attempt - 1, maxAttempts: MAX_ATTEMPTS },
  );
  return claimed[0];
}

export interface AttemptRecord {
  attemptRowId: string;
  deliveryRecordId: string;
  userId: string;
  attempt: number;
  /** What the delivery becomes. */
  next: 'success' | 'failed' | 'pending';
  nextAttemptAt: Date | null;
  statusCode: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  now: Date;
}

/**
 * Stores the attempt and moves its delivery on, unless the delivery moved meanwhile (paused while the
 * attempt was in flight: the pause note stays beside the attempt's error). Answers the delivery's state.
 */
export async function recordAttempt(db: Queryable, r: AttemptRecord): Promise<{ status: string; next_attempt_at: Date | null } | undefined> {
  const result = await rows<{ status: string; next_attempt_at: Date | null }>(
    db,
    `with attempt_row as (
       insert into webhook_attempts (id, created_at, updated_at, user_id, webhook_delivery_id, attempt, response_status_code, response_body, error, duration_ms)
       values (:attemptRowId, :now, :now, :userId, :deliveryRecordId, :attempt, :statusCode, :responseBody, :error, :durationMs)
       on conflict do nothing
     )
     update webhook_deliveries set
       status = case when :next::text = 'success' then 'success' when status = 'pending' then :next::text else status end,
       next_attempt_at = case when :next::text = 'success' or status <> 'pending' then null else :nextAttemptAt::timestamptz end,
       completed_at = case when :next::text = 'pending' and status = 'pending' then null else coalesce(completed_at, :now) end,
       response_status_code = :statusCode, response_body = :responseBody,
       last_error = case when status = 'pending' or :next::text = 'success' then :error::text else concat_ws(' — ', :error::text, last_error) end,
       updated_at = :now
     where id = :deliveryRecordId and attempts = :attempt
     returning status, next_attempt_at`,
    { ...r },
  );
  return result[0];
}

/** Pending deliveries of paused webhooks (or one of them) fail with a note saying why. */
export async function failPausedDeliveries(db: Queryable, now: Date, deliveryRecordId?: string): Promise<void> {
  await rows(
    db,
    `update webhook_deliveries d set status = 'failed', next_attempt_at = null, completed_at = :now, updated_at = :now,
       last_error = coalesce(d.last_error || ' — ', '') || :note
     from webhook_endpoints e
     where d.webhook_id = e.id and not e.active and d.status = 'pending' ${deliveryRecordId ? 'and d.id = :id' : ''}`,
    deliveryRecordId ? { now, note: PAUSED_ERROR, id: deliveryRecordId } : { now, note: PAUSED_ERROR },
  );
}

/** An attempt that crashed after the last allowed claim, its lease over before `cutoff`: nothing is left to try. */
export async function failInterruptedLastAttempts(db: Queryable, now: Date, cutoff: Date): Promise<void> {
  await rows(
    db,
    `update webhook_deliveries set status = 'failed', next_attempt_at = null, completed_at = :now, updated_at = :now,
       last_error = coalesce(last_error, 'The last attempt was interrupted')
     where status = 'pending' and attempts >= :maxAttempts and next_attempt_at <= :cutoff`,
    { now, cutoff, maxAttempts: MAX_ATTEMPTS },
  );
}

/** Pending deliveries of active webhooks due before `cutoff` (their job may be lost), oldest first, at most 1000. */
export function overdueDeliveries(db: Queryable, cutoff: Date): Promise<{ id: string; attempts: number }[]> {
  return rows(
    db,
    `select d.id, d.attempts from webhook_deliveries d join webhook_endpoints e on e.id = d.webhook_id
     where d.status = 'pending' and e.active and d.attempts < :maxAttempts and d.next_attempt_at <= :cutoff
     order by d.next_attempt_at limit 1000`,
    { cutoff, maxAttempts: MAX_ATTEMPTS },
  );
}

/**
 * Makes the given deliveries due now, only those still overdue: another instance may have claimed one
 * since it was read (a fresh lease), and erasing that lease would let a later sweep send it twice.
 * Answers the next attempt of each.
 */
export async function makeOverdueDue(db: Queryable, ids: string[], now: Date, cutoff: Date): Promise<DeliveryAttempt[]> {
  const made = await rows<{ id: string; attempts: number }>(
    db,
    `update webhook_deliveries set next_attempt_at = :now
     where id = any(:ids::uuid[]) and status = 'pending' and next_attempt_at <= :cutoff
     returning id, attempts`,
    { ids, now, cutoff },
  );
  return made.map((row) => ({ id: row.id, attempt: row.attempts + 1 }));
}
