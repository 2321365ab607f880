import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { resilientPool } from '../core/database/resilient-pool.js';
import type { AppDeps } from '../core/context.js';
import type { Logger } from '../core/logger.js';
import { loadJwtSecret } from '../core/secrets.js';
import { SecretBox } from './webhook-secret.js';
import { WebhookSender, type SendOutcome } from './webhook-sender.js';
import { Slots } from '../core/concurrency-slots.js';

export const DELIVERY_JOB = 'webhook-delivery';
/** Operations.md: at most 5 attempts in all — at once, then after 1, 2, 4 and 8 backoff units. */
export const MAX_ATTEMPTS = 5;
const NOTIFY_CHANNEL = 'lp_event_outbox';
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
const DISPATCH_BATCH = 500;
/** Poll for outbox rows with no notification: a missed one (a listener reconnecting, say), and events no endpoint subscribes to. */
const POLL_MS = 2000;
/** How often stuck deliveries (no job, a crashed attempt) are looked for, and how late they must be. */
const SWEEP_MS = 15_000;
const SWEEP_GRACE_MS = 30_000;
/** Backoff between attempts to replace a lost LISTEN connection. */
const LISTEN_RETRY_MIN_MS = 1000;
const LISTEN_RETRY_MAX_MS = 30_000;
export const PAUSED_ERROR = 'Webhook paused: the delivery was stopped';

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

/** Deliveries per job, and sends in flight per process. */
const JOB_BATCH = 200;
const MAX_IN_FLIGHT = 64;

/** Wait before attempt `next` (2…5): 1, 2, 4, 8 units. */
export function backoffBefore(next: number, unitMs: number): number {
  return unitMs * 2 ** (next - 2);
}

const engines = new WeakMap<AppDeps, WebhookEngine>();

export function webhookEngine(deps: AppDeps): WebhookEngine {
  const engine = engines.get(deps);
  if (!engine) throw new Error('webhook engine not registered (registerWebhookJobs)');
  return engine;
}

interface OutboxRow {
  id: string;
  user_id: string;
  event: string;
  data: Record<string, unknown>;
  occurred_at: Date;
}

/**
 * Outgoing webhooks at run time:
 * - the dispatcher turns undispatched `event_outbox` rows into one delivery per active, subscribed
 *   endpoint of the event's user, in the same transaction that marks the rows dispatched
 *   (`FOR UPDATE SKIP LOCKED`: instances never dispatch a row twice), then queues one Agenda job per
 *   delivery. A trigger NOTIFYs when an inserted event has a subscribed endpoint, so dispatch starts at
 *   once; a short poll covers a missed notification and marks the events nobody subscribes to.
 * - the delivery job claims its attempt atomically (only one instance sends a given attempt), POSTs the
 *   stored body, records the attempt, and queues the next attempt when one is due.
 * - a sweep (at start and every 15 s) re-queues pending deliveries whose job was lost (crash between
 *   commit and queueing, a crashed attempt) and fails pending deliveries of paused webhooks.
 */
export class WebhookEngine {
  private readonly log: Logger;
  private readonly sender: WebhookSender;
  private box: Promise<SecretBox>;
  private listener: pg.Client | undefined;
  private listenTimer: NodeJS.Timeout | undefined;
  private listenRetryMs = LISTEN_RETRY_MIN_MS;
  /** The engine's own connections: dispatch and attempts never queue behind HTTP requests for the ORM's pool. */
  private readonly pool: pg.Pool;
  private timers: NodeJS.Timeout[] = [];
  private dispatching: Promise<void> | undefined;
  private dispatchAgain = false;
  private stopping = false;
  private started = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: AppDeps) {
    this.log = deps.logger.child({ module: 'webhooks' });
    this.sender = new WebhookSender(deps.config.webhooks);
    this.box = loadJwtSecret(deps.config.jwtSecret, deps.config.dataDir).then((secret) => new SecretBox(secret));
    this.box.catch(() => undefined);
    this.pool = resilientPool({ connectionString: deps.orm.config.get('clientUrl')!, max: 8, idleTimeoutMillis: 30_000 }, this.log, 'webhooks');
  }

  static register(deps: AppDeps): WebhookEngine {
    const engine = new WebhookEngine(deps);
    engines.set(deps, engine);
    const { agenda } = deps.jobs;
    // Deliveries wait on remote servers: give them room beside the other jobs (Agenda's default is 20).
    if (agenda.attrs.maxConcurrency < 100) agenda.maxConcurrency(100);
    const lockLifetime = deps.config.webhooks.timeoutMs + 30_000;
    agenda.define<DeliveryJobData>(
      DELIVERY_JOB,
      async (job) => {
        // A batch may outlast one lock lifetime behind a slow receiver: keep the lock fresh meanwhile.
        const keepAlive = setInterval(() => void job.touch().catch(() => undefined), lockLifetime / 3);
        try {
          await engine.track(engine.attemptAll(job.attrs.data.deliveries ?? []));
        } finally {
          clearInterval(keepAlive);
        }
      },
      { concurrency: 16, lockLifetime, removeOnComplete: true },
    );
    // The engine starts after the job runner and stops before it.
    deps.jobs.attach(engine);
    return engine;
  }

  secrets(): Promise<SecretBox> {
    return this.box;
  }

  /** One statement on the engine's pool; `?` placeholders become $1, $2, … */
  private async query<R extends Record<string, any> = Record<string, any>>(text: string, params: unknown[] = [], client: pg.Pool | pg.PoolClient = this.pool): Promise<R[]> {
    let n = 0;
    return (await client.query<R>(text.replace(/\?/g, () => `$${++n}`), params)).rows;
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.installNotifyTrigger();
    await this.listen();
    this.timers.push(setInterval(() => this.nudge(), POLL_MS));
    this.timers.push(setInterval(() => void this.sweep(SWEEP_GRACE_MS).catch((e) => this.log.error({ err: e }, 'webhook sweep failed')), SWEEP_MS));
    for (const t of this.timers) t.unref();
    // Whatever the last run left: undispatched events, deliveries whose job is gone.
    this.nudge();
    await this.sweep(0).catch((e) => this.log.error({ err: e }, 'webhook sweep failed'));
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    clearTimeout(this.listenTimer);
    await this.listener?.end().catch(() => undefined);
    await this.dispatching?.catch(() => undefined);
    // Attempts in flight finish and record their outcome (each is bounded by the timeout).
    await Promise.allSettled([...this.inFlight]);
    this.sender.close();
    await this.pool.end().catch(() => undefined);
  }

  /**
   * A statement-level trigger NOTIFYs listeners when events are written that an active endpoint
   * subscribes to (created idempotently at start). Events nobody subscribes to need no delivery: the
   * poll marks them dispatched in batches, so a user without webhooks costs no dispatch round per write.
   * When the trigger is already in place, as it is on every restart, one read replaces the DDL
   * transaction (whose commit waits on the WAL flush: ~0.1 s of the start before readiness, issue 18).
   */
  private async installNotifyTrigger(): Promise<void> {
    const installed = await this.pool.query(
      `select 1 from pg_trigger t join pg_proc p on p.oid = t.tgfoid
        where t.tgrelid = 'event_outbox'::regclass and t.tgname = 'lp_event_outbox_notify'
          and t.tgtype = 4 -- AFTER INSERT, FOR EACH STATEMENT
          and t.tgenabled = 'O' and t.tgnewtable = 'inserted_events'
          and p.proname = 'lp_event_outbox_notify' and p.prosrc = $1`,
      [NOTIFY_FUNCTION_BODY],
    );
    if (installed.rowCount) return;
    await this.inTransaction(async (client) => {
      await client.query(`select pg_advisory_xact_lock(hashtext('lp_event_outbox_notify'))`);
      await client.query(`create or replace function lp_event_outbox_notify() returns trigger language plpgsql as $fn$${NOTIFY_FUNCTION_BODY}$fn$`);
      await client.query(`create or replace trigger lp_event_outbox_notify after insert on event_outbox
        referencing new table as inserted_events
        for each statement execute function lp_event_outbox_notify()`);
    });
  }

  /** Runs `work` in one transaction on one pooled connection: committed if it resolves, rolled back if it throws. */
  private async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * The LISTEN connection for outbox notifications. Lost (the database restarted, the connection was
   * killed), it is replaced with backoff (1 s doubling to 30 s), and each new one runs the dispatcher at
   * once: events written while it was away are picked up without waiting for a notification.
   */
  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.deps.orm.config.get('clientUrl')! });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
      if (this.stopping) return;
      const delay = this.listenRetryMs;
      this.listenRetryMs = Math.min(delay * 2, LISTEN_RETRY_MAX_MS);
      this.log.warn({ err: error, retryInMs: delay }, 'webhook listener lost; reconnecting');
      this.listenTimer = setTimeout(() => void this.listen().catch(() => undefined), delay);
      this.listenTimer.unref();
    };
    client.on('notification', () => this.nudge());
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      throw error;
    }
    if (this.stopping) {
      lost = true;
      await client.end().catch(() => undefined);
      return;
    }
    if (this.listenRetryMs !== LISTEN_RETRY_MIN_MS) this.log.info('webhook listener reconnected');
    this.listenRetryMs = LISTEN_RETRY_MIN_MS;
    this.listener = client;
    this.nudge();
  }

  /** Runs the dispatcher now, or once more right after the run in progress. */
  nudge(): void {
    if (this.stopping) return;
    if (this.dispatching) {
      this.dispatchAgain = true;
      return;
    }
    this.dispatching = (async () => {
      try {
        do {
          this.dispatchAgain = false;
          while (!this.stopping && (await this.dispatchBatch()) === DISPATCH_BATCH);
        } while (this.dispatchAgain && !this.stopping);
      } catch (error) {
        this.log.error({ err: error }, 'webhook dispatch failed');
      } finally {
        this.dispatching = undefined;
      }
    })();
  }

  /**
   * One transaction on one connection, three statements: lock a batch of undispatched outbox rows (with
   * each row's subscribed active endpoints), insert their deliveries and mark the rows dispatched.
   */
  private async dispatchBatch(): Promise<number> {
    const created: DeliveryAttempt[] = [];
    const count = await this.inTransaction(async (client) => {
      const events = await this.query<OutboxRow & { endpoints: string[] }>(
        `with ev as (
           select id, user_id, event, data, occurred_at from event_outbox
            where dispatched_at is null order by occurred_at, id limit ? for update skip locked
         )
         select ev.*, array(select e.id from webhook_endpoints e
                             where e.user_id = ev.user_id and e.active and ev.event = any(e.events)
                             order by e.created_at, e.id) as endpoints
           from ev`,
        [DISPATCH_BATCH],
        client,
      );
      if (events.length) {
        const now = new Date();
        const cols = { id: [] as string[], user: [] as string[], webhook: [] as string[], deliveryId: [] as string[], event: [] as string[], payload: [] as string[] };
        for (const event of events) {
          if (!event.endpoints.length) continue;
          const body = JSON.stringify({ event: event.event, timestamp: new Date(event.occurred_at).toISOString(), data: event.data });
          for (const webhookId of event.endpoints) {
            const id = randomUUID();
            cols.id.push(id);
            cols.user.push(event.user_id);
            cols.webhook.push(webhookId);
            cols.deliveryId.push(randomUUID());
            cols.event.push(event.event);
            cols.payload.push(body);
            created.push({ id, attempt: 1 });
          }
        }
        await this.query(
          `with inserted as (
             insert into webhook_deliveries (id, created_at, updated_at, user_id, webhook_id, delivery_id, event, payload, status, attempts, next_attempt_at)
             select t.id, ?, ?, t.user_id, t.webhook_id, t.delivery_id, t.event, t.payload, 'pending', 0, ?
               from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::text[]) as t(id, user_id, webhook_id, delivery_id, event, payload)
             returning 1
           )
           update event_outbox set dispatched_at = ? where id = any(?::uuid[])`,
          [now, now, now, cols.id, cols.user, cols.webhook, cols.deliveryId, cols.event, cols.payload, now, events.map((e) => e.id)],
          client,
        );
      }
      return events.length;
    });
    if (created.length) this.runNow(created);
    return count;
  }

  /**
   * First attempts start at once in this process, without a queue round trip (the write-to-first-attempt
   * delay). Each batch still gets its Agenda job, saved alongside and due only after the attempts'
   * lease: if this process dies before they are done, that job (on any instance) makes them; once
   * they are done, the job is cancelled. Claims keep the two from ever sending an attempt twice.
   */
  private runNow(deliveries: DeliveryAttempt[]): void {
    const backupAt = new Date(Date.now() + this.deps.config.webhooks.timeoutMs + 30_000);
    const saved = this.queue(deliveries, backupAt);
    const work = this.attemptAll(deliveries);
    void this.track(
      Promise.all([saved, work]).then(async ([jobIds]) => {
        // Stopping: attempts not made stay pending and their job stays queued.
        if (jobIds.length && !this.stopping) await this.deps.jobs.agenda.cancel({ ids: jobIds });
      }),
    ).catch((error) => this.log.warn({ err: error }, 'could not cancel a finished webhook job'));
  }

  /** Queues delivery jobs. A job lost here is found again by the sweep (the delivery stays pending). */
  private async queue(deliveries: DeliveryAttempt[], at: Date): Promise<string[]> {
    const { agenda } = this.deps.jobs;
    const batches: DeliveryAttempt[][] = [];
    for (let i = 0; i < deliveries.length; i += JOB_BATCH) batches.push(deliveries.slice(i, i + JOB_BATCH));
    const results = await Promise.allSettled(
      batches.map((batch) => agenda.create<DeliveryJobData>(DELIVERY_JOB, { deliveries: batch }).schedule(at).save()),
    );
    const failed = results.filter((r) => r.status === 'rejected');
    if (failed.length) this.log.warn({ err: (failed[0] as PromiseRejectedResult).reason, count: failed.length }, 'could not queue webhook deliveries; the sweep will');
    return results.flatMap((r) => (r.status === 'fulfilled' && r.value.attrs._id ? [String(r.value.attrs._id)] : []));
  }

  /** Runs a job's attempts side by side, at most MAX_IN_FLIGHT sends at a time in this process. */
  async attemptAll(deliveries: DeliveryAttempt[]): Promise<void> {
    const results = await Promise.allSettled(deliveries.map((d) => this.sends.run(() => this.attempt(d.id, d.attempt))));
    const failed = results.filter((r) => r.status === 'rejected');
    if (failed.length) this.log.error({ err: (failed[0] as PromiseRejectedResult).reason, count: failed.length }, 'webhook attempts failed');
  }

  /** At most MAX_IN_FLIGHT sends at a time in this process. */
  private readonly sends = new Slots(MAX_IN_FLIGHT);

  /**
   * Makes attempt `attempt` of a delivery, once across all instances: the claim moves `attempts` from
   * attempt-1 to attempt while the delivery is pending, due, and its webhook active. While the attempt
   * runs, `nextAttemptAt` holds a lease (timeout + 5 s) after which the sweep treats it as crashed.
   */
  async attempt(id: string, attempt: number): Promise<void> {
    if (this.stopping) return;
    const now = new Date();
    const lease = new Date(now.getTime() + this.deps.config.webhooks.timeoutMs + 5000);
    const claimed: { user_id: string; delivery_id: string; event: string; payload: string; url: string; secret_encrypted: string }[] = (
      await this.query(
        `update webhook_deliveries d
           set attempts = d.attempts + 1, next_attempt_at = ?, last_attempt_at = ?, updated_at = ?
         from webhook_endpoints e
         where d.id = ? and d.status = 'pending' and d.attempts = ? and d.attempts < ? and d.next_attempt_at <= ?
           and e.id = d.webhook_id and e.active
         returning d.user_id, d.delivery_id, d.event, d.payload, e.url, e.secret_encrypted`,
        [lease, now, now, id, attempt - 1, MAX_ATTEMPTS, now],
      )
    );
    const row = claimed[0];
    if (!row) {
      await this.failPaused(id);
      return;
    }
    let outcome: SendOutcome;
    try {
      const secret = (await this.box).open(row.secret_encrypted);
      outcome = await this.sender.send({ url: row.url, secret, event: row.event, deliveryId: row.delivery_id, body: row.payload });
    } catch (error) {
      outcome = { kind: 'network-error', error: `cannot sign the delivery: ${(error as Error).message}`, retry: false, durationMs: 0 };
    }
    try {
      await this.record(id, row.user_id, attempt, outcome);
    } catch (error) {
      // The webhook (and its history) was deleted while the attempt ran: nothing left to record.
      if ((error as { code?: string }).code === '23503') return;
      throw error;
    }
  }

  private async record(id: string, userId: string, attempt: number, outcome: SendOutcome): Promise<void> {
    const now = new Date();
    const statusCode = outcome.kind === 'network-error' ? null : outcome.statusCode;
    const body = outcome.kind === 'network-error' ? null : outcome.responseBody;
    const error = outcome.kind === 'network-error' ? outcome.error : null;
    let next: 'success' | 'failed' | 'pending';
    if (outcome.kind === 'success') next = 'success';
    else if (outcome.retry && attempt < MAX_ATTEMPTS) next = 'pending';
    else next = 'failed';
    const nextAt = next === 'pending' ? new Date(now.getTime() + backoffBefore(attempt + 1, this.deps.config.webhooks.backoffUnitMs)) : null;
    const result: { status: string; next_attempt_at: Date | null }[] = (
      await this.query(
        `with attempt_row as (
           insert into webhook_attempts (id, created_at, updated_at, user_id, webhook_delivery_id, attempt, response_status_code, response_body, error, duration_ms)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing
         )
         update webhook_deliveries set
           status = case when ? = 'success' then 'success' when status = 'pending' then ? else status end,
           next_attempt_at = case when ? = 'success' or status <> 'pending' then null else ?::timestamptz end,
           completed_at = case when ? = 'pending' and status = 'pending' then null else coalesce(completed_at, ?) end,
           response_status_code = ?, response_body = ?,
           -- paused while the attempt was in flight: the pause note stays beside the attempt's error
           last_error = case when status = 'pending' or ? = 'success' then ? else concat_ws(' — ', ?::text, last_error) end,
           updated_at = ?
         where id = ? and attempts = ?
         returning status, next_attempt_at`,
        [
          randomUUID(), now, now, userId, id, attempt, statusCode, body, error, outcome.durationMs,
          next, next,
          next, nextAt,
          next, now,
          statusCode, body,
          next, error, error,
          now,
          id, attempt,
        ],
      )
    );
    const after = result[0];
    if (after?.status === 'pending' && after.next_attempt_at) {
      await this.queue([{ id, attempt: attempt + 1 }], new Date(after.next_attempt_at));
    }
  }

  /** A pending delivery of a paused webhook will not be sent: it fails with a note saying why. */
  private async failPaused(deliveryRecordId?: string): Promise<void> {
    const now = new Date();
    await this.query(
      `update webhook_deliveries d set status = 'failed', next_attempt_at = null, completed_at = ?, updated_at = ?,
         last_error = coalesce(d.last_error || ' — ', '') || ?
       from webhook_endpoints e
       where d.webhook_id = e.id and not e.active and d.status = 'pending' ${deliveryRecordId ? 'and d.id = ?' : ''}`,
      deliveryRecordId ? [now, now, PAUSED_ERROR, deliveryRecordId] : [now, now, PAUSED_ERROR],
    );
  }

  /**
   * Deliveries that should have a job but may not: pending, webhook active, due more than `graceMs` ago
   * (at start: due at all). A duplicate job is harmless — the claim lets one attempt through.
   */
  async sweep(graceMs: number): Promise<void> {
    if (this.stopping) return;
    await this.failPaused();
    const now = new Date();
    const cutoff = new Date(now.getTime() - graceMs);
    // An attempt that crashed after the last allowed claim: nothing is left to try.
    await this.query(
      `update webhook_deliveries set status = 'failed', next_attempt_at = null, completed_at = ?, updated_at = ?,
         last_error = coalesce(last_error, 'The last attempt was interrupted')
       where status = 'pending' and attempts >= ? and next_attempt_at <= ?`,
      [now, now, MAX_ATTEMPTS, cutoff],
    );
    const stuck: { id: string; attempts: number }[] = (
      await this.query(
        `select d.id, d.attempts from webhook_deliveries d join webhook_endpoints e on e.id = d.webhook_id
         where d.status = 'pending' and e.active and d.attempts < ? and d.next_attempt_at <= ?
         order by d.next_attempt_at limit 1000`,
        [MAX_ATTEMPTS, cutoff],
      )
    );
    if (!stuck.length) return;
    // A crashed attempt left its lease in next_attempt_at: make the row due now so the new claim passes.
    // Only rows still overdue: another instance may have claimed one since the select (a fresh lease),
    // and erasing that lease would let a later sweep send the attempt in flight a second time.
    const requeued: { id: string; attempts: number }[] = await this.query(
      `update webhook_deliveries set next_attempt_at = ?
       where id = any(?::uuid[]) and status = 'pending' and next_attempt_at <= ?
       returning id, attempts`,
      [now, stuck.map((s) => s.id), cutoff],
    );
    if (!requeued.length) return;
    this.log.info({ count: requeued.length }, 're-queuing webhook deliveries without a job');
    await this.queue(
      requeued.map((s) => ({ id: s.id, attempt: s.attempts + 1 })),
      now,
    );
  }

  /** The test endpoint: the first attempt of a fresh delivery is made within the request. */
  async attemptNow(id: string): Promise<void> {
    await this.track(this.attempt(id, 1));
  }
}
