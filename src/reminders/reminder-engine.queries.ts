import type pg from 'pg';
import { namedParameters } from '../core/database/named-parameters.js';
import type { ReminderChannelName, ReminderKindName } from './reminder-kind.js';

/**
 * The reminder engine's SQL, on its own pool (the scan and the sends never queue behind HTTP requests
 * for the ORM's connections). Every statement names its parameters.
 */
export type Queryable = pg.Pool | pg.PoolClient;

async function rows<R extends pg.QueryResultRow>(db: Queryable, text: string, values: Record<string, unknown> = {}): Promise<R[]> {
  const statement = namedParameters(text, values);
  return (await db.query<R>(statement.text, statement.values)).rows;
}

export interface DueWork {
  /** A reminder is due by `horizon`. */
  reminders: boolean;
  /** A delivery may be sent now. */
  deliveries: boolean;
  /** When the next pending delivery may be sent, if later than now. */
  nextDeliveryAt: Date | null;
}

/** What there is to do (three reads through the partial indexes): reminders to claim, deliveries to send. */
export async function dueWork(db: Queryable, now: Date, horizon: Date): Promise<DueWork> {
  const [row] = await rows<{ reminders: boolean; deliveries: boolean; next_delivery_at: Date | null }>(
    db,
    `select exists(select 1 from reminders where active and next_due_at is not null and next_due_at <= :horizon) as reminders,
            exists(select 1 from reminder_deliveries where status = 'pending' and next_attempt_at <= :now) as deliveries,
            (select min(next_attempt_at) from reminder_deliveries where status = 'pending' and next_attempt_at > :now) as next_delivery_at`,
    { now, horizon },
  );
  return { reminders: row!.reminders, deliveries: row!.deliveries, nextDeliveryAt: row!.next_delivery_at ? new Date(row!.next_delivery_at) : null };
}

export interface DueReminder {
  id: string;
  user_id: string;
  kind: ReminderKindName;
  target_id: string | null;
  channel: ReminderChannelName;
  offset_minutes: number;
  local_time: string | null;
  next_due_at: Date;
  next_occurrence_key: string;
  timezone: string;
  quiet_hours_start: string | null;
  quiet_hours_end: string | null;
}

/**
 * Locks a batch of reminders due by `horizon`, earliest first (other instances skip them: FOR UPDATE
 * SKIP LOCKED), with the user's time zone and quiet hours.
 */
export function lockDueReminders(client: pg.PoolClient, horizon: Date, limit: number): Promise<DueReminder[]> {
  return rows<DueReminder>(
    client,
    `select r.id, r.user_id, r.kind, r.target_id, r.channel, r.offset_minutes, r.local_time, r.next_due_at, r.next_occurrence_key,
            coalesce(s.timezone, 'UTC') as timezone, ns.quiet_hours_start, ns.quiet_hours_end
       from reminders r
       left join user_settings s on s.user_id = r.user_id
       left join notification_settings ns on ns.user_id = r.user_id
      where r.active and r.next_due_at is not null and r.next_due_at <= :horizon
      order by r.next_due_at
      limit :limit
        for update of r skip locked`,
    { horizon, limit },
  );
}

export interface NewDelivery {
  id: string;
  userId: string;
  reminderId: string;
  key: string;
  dueAt: Date;
  channel: ReminderChannelName;
  /** When it may be sent: its due time, or the end of the quiet hours it falls in. */
  sendAt: Date;
  heldUntil: Date | null;
}

export interface Advance {
  id: string;
  /** null: no occurrence left. */
  nextDueAt: Date | null;
  key: string | null;
}

/**
 * In the claiming transaction: inserts the occurrences' deliveries (an occurrence made before, by
 * another instance or before a crash, is left as it is: the unique (reminder, key) is the idempotency
 * key) and moves each reminder to its next occurrence. Answers how many deliveries were new, and
 * when the first of them may be sent.
 */
export async function insertDeliveriesAndAdvance(
  client: pg.PoolClient,
  deliveries: NewDelivery[],
  advances: Advance[],
  now: Date,
): Promise<{ inserted: number; firstSendAt: Date | null }> {
  const [row] = await rows<{ inserted: number; first_send_at: Date | null }>(
    client,
    `with inserted as (
       insert into reminder_deliveries (id, created_at, updated_at, user_id, reminder_id, occurrence_key, due_at, channel, status, attempts, next_attempt_at, held_until)
       select t.id, :now, :now, t.user_id, t.reminder_id, t.key, t.due_at, t.channel, 'pending', 0, t.send_at, t.held_until
         from unnest(:ids::uuid[], :users::uuid[], :reminders::uuid[], :keys::text[], :dues::timestamptz[], :channels::text[], :sendAts::timestamptz[], :helds::timestamptz[])
           as t(id, user_id, reminder_id, key, due_at, channel, send_at, held_until)
       on conflict (reminder_id, occurrence_key) do nothing
       returning next_attempt_at
     ), advanced as (
       update reminders r set next_due_at = a.next_due_at, next_occurrence_key = a.key, updated_at = :now
         from unnest(:advanceIds::uuid[], :nextDues::timestamptz[], :nextKeys::text[]) as a(id, next_due_at, key)
        where r.id = a.id
       returning 1
     )
     select (select count(*) from inserted)::int as inserted, (select min(next_attempt_at) from inserted) as first_send_at`,
    {
      now,
      ids: deliveries.map((d) => d.id),
      users: deliveries.map((d) => d.userId),
      reminders: deliveries.map((d) => d.reminderId),
      keys: deliveries.map((d) => d.key),
      dues: deliveries.map((d) => d.dueAt),
      channels: deliveries.map((d) => d.channel),
      sendAts: deliveries.map((d) => d.sendAt),
      helds: deliveries.map((d) => d.heldUntil),
      advanceIds: advances.map((a) => a.id),
      nextDues: advances.map((a) => a.nextDueAt),
      nextKeys: advances.map((a) => a.key),
    },
  );
  return { inserted: row!.inserted, firstSendAt: row!.first_send_at ? new Date(row!.first_send_at) : null };
}

/** A pending delivery whose last attempt was interrupted after the last allowed claim: nothing is left to try. */
export async function failExhaustedDeliveries(db: Queryable, now: Date, maxAttempts: number): Promise<void> {
  await rows(
    db,
    `update reminder_deliveries set status = 'failed', next_attempt_at = null, failed_at = :now, updated_at = :now,
       error = coalesce(error, 'The last attempt was interrupted')
     where status = 'pending' and next_attempt_at <= :now and attempts >= :maxAttempts`,
    { now, maxAttempts },
  );
}

export interface ClaimedDelivery {
  id: string;
  user_id: string;
  reminder_id: string;
  occurrence_key: string;
  due_at: Date;
  channel: ReminderChannelName;
  attempts: number;
  kind: ReminderKindName;
  target_id: string | null;
  offset_minutes: number;
  local_time: string | null;
  active: boolean;
  email: string;
  email_verified: boolean;
  timezone: string;
  push_url: string | null;
  /** Until when this instance holds the delivery. */
  lease_until: Date;
}

/**
 * Claims up to `limit` due pending deliveries, earliest first, once across all instances: `attempts`
 * goes up by one and `next_attempt_at` becomes the lease (`mailLease` for email, whose SMTP exchange may
 * take longer; after it, a sweep may take the delivery over). Answers each with its reminder, its user's
 * address, time zone and push URL.
 */
export function claimDueDeliveries(db: Queryable, now: Date, lease: Date, mailLease: Date, limit: number, maxAttempts: number): Promise<ClaimedDelivery[]> {
  return rows<ClaimedDelivery>(
    db,
    `with c as (
       select id from reminder_deliveries
        where status = 'pending' and next_attempt_at <= :now and attempts < :maxAttempts
        order by next_attempt_at
        limit :limit
          for update skip locked
     )
     update reminder_deliveries d set attempts = d.attempts + 1, updated_at = :now,
            next_attempt_at = case when d.channel = 'email' then :mailLease::timestamptz else :lease::timestamptz end
       from c, reminders r
       join users u on u.id = r.user_id
       left join user_settings s on s.user_id = r.user_id
       left join notification_settings ns on ns.user_id = r.user_id
      where d.id = c.id and r.id = d.reminder_id
     returning d.id, d.user_id, d.reminder_id, d.occurrence_key, d.due_at, d.channel, d.attempts,
               r.kind, r.target_id, r.offset_minutes, r.local_time, r.active,
               u.email, u.email_verified_at is not null as email_verified, coalesce(s.timezone, 'UTC') as timezone, ns.push_url,
               d.next_attempt_at as lease_until`,
    { now, lease, mailLease, limit, maxAttempts },
  );
}

export interface StoredPushSubscription {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The users' current push subscriptions (at most `perUser` each, oldest first). */
export function pushSubscriptionsOf(db: Queryable, userIds: string[], now: Date, perUser: number): Promise<StoredPushSubscription[]> {
  return rows<StoredPushSubscription>(
    db,
    `select id, user_id, endpoint, p256dh, auth from (
       select p.*, row_number() over (partition by p.user_id order by p.created_at, p.id) as n
         from push_subscriptions p
        where p.user_id = any(:userIds::uuid[]) and (p.expires_at is null or p.expires_at > :now)
     ) x where n <= :perUser`,
    { userIds, now, perUser },
  );
}

export interface Outcome {
  id: string;
  /** The attempt that was claimed: a delivery taken over by another instance meanwhile is not touched. */
  attempt: number;
  status: 'sent' | 'skipped' | 'failed' | 'pending';
  /** For a retry (`pending`): when. */
  nextAttemptAt: Date | null;
  error: string | null;
}

/** Records the outcomes of claimed deliveries, in one statement. */
export async function recordOutcomes(db: Queryable, outcomes: Outcome[], now: Date): Promise<void> {
  if (!outcomes.length) return;
  await rows(
    db,
    `update reminder_deliveries d set
       status = o.status,
       next_attempt_at = o.next_attempt_at,
       sent_at = case when o.status = 'sent' then :now else d.sent_at end,
       failed_at = case when o.status in ('failed', 'skipped') then :now else d.failed_at end,
       error = o.error,
       updated_at = :now
     from unnest(:ids::uuid[], :attempts::int[], :statuses::text[], :nexts::timestamptz[], :errors::text[]) as o(id, attempt, status, next_attempt_at, error)
     where d.id = o.id and d.attempts = o.attempt and d.status = 'pending'`,
    {
      now,
      ids: outcomes.map((o) => o.id),
      attempts: outcomes.map((o) => o.attempt),
      statuses: outcomes.map((o) => o.status),
      nexts: outcomes.map((o) => o.nextAttemptAt),
      errors: outcomes.map((o) => o.error),
    },
  );
}

/** A push service answered 404/410: the subscriptions are gone. */
export async function dropPushSubscriptions(db: Queryable, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await rows(db, `delete from push_subscriptions where id = any(:ids::uuid[])`, { ids });
}

/** The push URL answered 404/410: it is cleared (unless the user changed it meanwhile). */
export async function clearPushUrl(db: Queryable, userId: string, url: string, now: Date): Promise<void> {
  await rows(db, `update notification_settings set push_url = null, updated_at = :now where user_id = :userId and push_url = :url`, { userId, url, now });
}
