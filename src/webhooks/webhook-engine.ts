import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Knex } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
import type { Logger } from '../core/logger.js';
import { loadJwtSecret } from '../core/secrets.js';
import { SecretBox } from './webhook-secret.js';
import { WebhookSender, type SendOutcome } from './webhook-sender.js';

export const DELIVERY_JOB = 'webhook-delivery';
/** Operations.md: at most 5 attempts in all — at once, then after 1, 2, 4 and 8 backoff units. */
export const MAX_ATTEMPTS = 5;
const NOTIFY_CHANNEL = 'lp_event_outbox';
const DISPATCH_BATCH = 500;
/** Fallback poll for outbox rows whose notification was missed (a listener reconnecting, say). */
const POLL_MS = 2000;
/** How often stuck deliveries (no job, a crashed attempt) are looked for, and how late they must be. */
const SWEEP_MS = 15_000;
const SWEEP_GRACE_MS = 30_000;
export const PAUSED_ERROR = 'Webhook paused: the delivery was stopped';

export interface DeliveryJobData {
  /** webhook_deliveries.id */
  id: string;
  /** The attempt this job makes (1-based). */
  attempt: number;
}

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
 *   delivery. A trigger NOTIFYs on every outbox insert so dispatch starts at once; a short poll covers
 *   a missed notification.
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
  }

  static register(deps: AppDeps): WebhookEngine {
    const engine = new WebhookEngine(deps);
    engines.set(deps, engine);
    const { agenda } = deps.jobs;
    // Deliveries wait on remote servers: give them room beside the other jobs (Agenda's default is 20).
    if (agenda.attrs.maxConcurrency < 100) agenda.maxConcurrency(100);
    agenda.define<DeliveryJobData>(DELIVERY_JOB, (job) => engine.track(engine.attempt(job.attrs.data.id, job.attrs.data.attempt)), {
      concurrency: 64,
      lockLifetime: deps.config.webhooks.timeoutMs + 30_000,
      removeOnComplete: true,
    });
    // The runner starts after registration; the engine starts with it and stops before it.
    const runner = deps.jobs;
    const start = runner.start.bind(runner);
    const stop = runner.stop.bind(runner);
    runner.start = async () => {
      await start();
      await engine.start();
    };
    runner.stop = async () => {
      await engine.stop();
      await stop();
    };
    return engine;
  }

  secrets(): Promise<SecretBox> {
    return this.box;
  }

  private get knex(): Knex {
    return this.deps.orm.em.getKnex();
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
    await this.listener?.end().catch(() => undefined);
    await this.dispatching?.catch(() => undefined);
    // Attempts in flight finish and record their outcome (each is bounded by the timeout).
    await Promise.allSettled([...this.inFlight]);
    this.sender.close();
  }

  /** A statement-level trigger NOTIFYs listeners when events are written (created idempotently at start). */
  private async installNotifyTrigger(): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx.raw(`select pg_advisory_xact_lock(hashtext('lp_event_outbox_notify'))`);
      await trx.raw(`create or replace function lp_event_outbox_notify() returns trigger language plpgsql as $fn$
        begin perform pg_notify('${NOTIFY_CHANNEL}', ''); return null; end $fn$`);
      await trx.raw(`create or replace trigger lp_event_outbox_notify after insert on event_outbox
        for each statement execute function lp_event_outbox_notify()`);
    });
  }

  private async listen(): Promise<void> {
    const connectionString = this.deps.orm.config.get('clientUrl')!;
    const connect = async () => {
      const client = new pg.Client({ connectionString });
      client.on('notification', () => this.nudge());
      client.on('error', (error) => {
        this.log.warn({ err: error }, 'webhook listener lost; reconnecting');
        if (this.listener === client) this.listener = undefined;
        client.end().catch(() => undefined);
        if (!this.stopping) setTimeout(() => void connect().catch(() => undefined), 1000).unref();
      });
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      if (this.stopping) await client.end();
      else this.listener = client;
      this.nudge();
    };
    await connect();
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

  /** One transaction: lock a batch of outbox rows, create their deliveries, mark them dispatched. */
  private async dispatchBatch(): Promise<number> {
    const created: DeliveryJobData[] = [];
    let count = 0;
    await this.knex.transaction(async (trx) => {
      const events: OutboxRow[] = (
        await trx.raw(
          `select id, user_id, event, data, occurred_at from event_outbox
           where dispatched_at is null order by occurred_at, id limit ? for update skip locked`,
          [DISPATCH_BATCH],
        )
      ).rows;
      count = events.length;
      if (!events.length) return;
      const userIds = [...new Set(events.map((e) => e.user_id))];
      const endpoints: { id: string; user_id: string; events: string[] }[] = await trx('webhook_endpoints')
        .select('id', 'user_id', 'events')
        .where('active', true)
        .whereIn('user_id', userIds);
      const now = new Date();
      const rows: Record<string, unknown>[] = [];
      for (const event of events) {
        const body = JSON.stringify({ event: event.event, timestamp: new Date(event.occurred_at).toISOString(), data: event.data });
        for (const endpoint of endpoints) {
          if (endpoint.user_id !== event.user_id || !endpoint.events.includes(event.event)) continue;
          const id = randomUUID();
          rows.push(deliveryRow(id, endpoint.user_id, endpoint.id, event.event, body, now));
          created.push({ id, attempt: 1 });
        }
      }
      for (let i = 0; i < rows.length; i += 1000) await trx('webhook_deliveries').insert(rows.slice(i, i + 1000));
      await trx('event_outbox')
        .update({ dispatched_at: now })
        .whereIn(
          'id',
          events.map((e) => e.id),
        );
    });
    if (created.length) await this.queue(created, new Date());
    return count;
  }

  /** Queues delivery jobs. A job lost here is found again by the sweep (the delivery stays pending). */
  private async queue(jobs: DeliveryJobData[], at: Date): Promise<void> {
    const { agenda } = this.deps.jobs;
    const results = await Promise.allSettled(jobs.map((data) => agenda.create<DeliveryJobData>(DELIVERY_JOB, data).schedule(at).save()));
    const failed = results.filter((r) => r.status === 'rejected');
    if (failed.length) this.log.warn({ err: (failed[0] as PromiseRejectedResult).reason, count: failed.length }, 'could not queue webhook deliveries; the sweep will');
  }

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
      await this.knex.raw(
        `update webhook_deliveries d
           set attempts = d.attempts + 1, next_attempt_at = ?, last_attempt_at = ?, updated_at = ?
         from webhook_endpoints e
         where d.id = ? and d.status = 'pending' and d.attempts = ? and d.attempts < ? and d.next_attempt_at <= ?
           and e.id = d.webhook_id and e.active
         returning d.user_id, d.delivery_id, d.event, d.payload, e.url, e.secret_encrypted`,
        [lease, now, now, id, attempt - 1, MAX_ATTEMPTS, now],
      )
    ).rows;
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
      await this.knex.raw(
        `with attempt_row as (
           insert into webhook_attempts (id, created_at, updated_at, user_id, webhook_delivery_id, attempt, response_status_code, response_body, error, duration_ms)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing
         )
         update webhook_deliveries set
           status = case when ? = 'success' then 'success' when status = 'pending' then ? else status end,
           next_attempt_at = case when ? = 'success' or status <> 'pending' then null else ?::timestamptz end,
           completed_at = case when ? = 'pending' and status = 'pending' then null else coalesce(completed_at, ?) end,
           response_status_code = ?, response_body = ?, last_error = ?, updated_at = ?
         where id = ? and attempts = ?
         returning status, next_attempt_at`,
        [
          randomUUID(), now, now, userId, id, attempt, statusCode, body, error, outcome.durationMs,
          next, next,
          next, nextAt,
          next, now,
          statusCode, body, error, now,
          id, attempt,
        ],
      )
    ).rows;
    const after = result[0];
    if (after?.status === 'pending' && after.next_attempt_at) {
      await this.queue([{ id, attempt: attempt + 1 }], new Date(after.next_attempt_at));
    }
  }

  /** A pending delivery of a paused webhook will not be sent: it fails with a note saying why. */
  private async failPaused(deliveryRecordId?: string): Promise<void> {
    const now = new Date();
    await this.knex.raw(
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
    await this.knex.raw(
      `update webhook_deliveries set status = 'failed', next_attempt_at = null, completed_at = ?, updated_at = ?,
         last_error = coalesce(last_error, 'The last attempt was interrupted')
       where status = 'pending' and attempts >= ? and next_attempt_at <= ?`,
      [now, now, MAX_ATTEMPTS, cutoff],
    );
    const stuck: { id: string; attempts: number }[] = (
      await this.knex.raw(
        `select d.id, d.attempts from webhook_deliveries d join webhook_endpoints e on e.id = d.webhook_id
         where d.status = 'pending' and e.active and d.attempts < ? and d.next_attempt_at <= ?
         order by d.next_attempt_at limit 1000`,
        [MAX_ATTEMPTS, cutoff],
      )
    ).rows;
    if (!stuck.length) return;
    // A crashed attempt left its lease in next_attempt_at: make the row due now so the new claim passes.
    await this.knex('webhook_deliveries')
      .update({ next_attempt_at: now })
      .whereIn(
        'id',
        stuck.map((s) => s.id),
      )
      .andWhere('status', 'pending');
    this.log.info({ count: stuck.length }, 're-queuing webhook deliveries without a job');
    await this.queue(
      stuck.map((s) => ({ id: s.id, attempt: s.attempts + 1 })),
      now,
    );
  }

  /** The test endpoint: the first attempt of a fresh delivery is made within the request. */
  async attemptNow(id: string): Promise<void> {
    await this.track(this.attempt(id, 1));
  }
}

export function deliveryRow(id: string, userId: string, webhookId: string, event: string, payload: string, now: Date): Record<string, unknown> {
  return {
    id,
    created_at: now,
    updated_at: now,
    user_id: userId,
    webhook_id: webhookId,
    delivery_id: randomUUID(),
    event,
    payload,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
  };
}
