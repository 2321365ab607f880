import type pg from 'pg';
import type { EngineParts } from '../core/context.js';
import { resilientPool } from '../core/database/resilient-pool.js';
import { loadJwtSecret } from '../core/secrets.js';
import { DeliveryAttempts } from './delivery-attempts.js';
import { DELIVERY_JOB, type DeliveryJobData } from './delivery-rules.js';
import { DeliverySweep } from './delivery-sweep.js';
import { OutboxDispatcher } from './outbox-dispatcher.js';
import { SecretBox } from './webhook-secret.js';
import { WebhookSender } from './webhook-sender.js';

declare module '../core/context.js' {
  interface Engines {
    /** Outgoing webhooks: dispatcher, attempts and sweep (WebhookEngine.register). */
    webhooks: WebhookEngine;
  }
}

/**
 * Outgoing webhooks at run time, three parts on one pool of their own (dispatch and attempts never
 * queue behind HTTP requests for the ORM's connections):
 * - the dispatcher (outbox-dispatcher.ts) turns committed events into deliveries and starts their
 *   first attempts at once;
 * - the attempts (delivery-attempts.ts) claim, send, record and queue the next attempt as an Agenda job;
 * - the sweep (delivery-sweep.ts) queues again what lost its job and fails what a pause stopped.
 */
export class WebhookEngine {
  private readonly pool: pg.Pool;
  private readonly sender: WebhookSender;
  private readonly box: Promise<SecretBox>;
  private readonly attempts: DeliveryAttempts;
  private readonly dispatcher: OutboxDispatcher;
  private readonly sweeper: DeliverySweep;
  private started = false;
  private stopped = false;
  /**
   * The clock claims, outcomes, backoffs and the sweep read (tests pass instants and call attemptDue
   * instead of waiting for a backoff, as with the reminder dispatcher's `now`).
   */
  now: () => Date = () => new Date();

  constructor(deps: EngineParts) {
    const logger = deps.logger.child({ module: 'webhooks' });
    const connectionString = deps.orm.config.get('clientUrl')!;
    this.pool = resilientPool({ connectionString, max: 8, idleTimeoutMillis: 30_000 }, logger, 'webhooks');
    this.sender = new WebhookSender(deps.config.webhooks);
    this.box = loadJwtSecret(deps.config.jwtSecret, deps.config.dataDir).then((secret) => new SecretBox(secret));
    this.box.catch(() => undefined);
    this.attempts = new DeliveryAttempts({
      pool: this.pool,
      agenda: deps.jobs.agenda,
      sender: this.sender,
      secrets: this.box,
      timeoutMs: deps.config.webhooks.timeoutMs,
      backoffUnitMs: deps.config.webhooks.backoffUnitMs,
      logger,
      clock: () => this.now(),
    });
    this.dispatcher = new OutboxDispatcher({ pool: this.pool, connectionString, logger, onDeliveries: (created) => this.attempts.runNow(created) });
    this.sweeper = new DeliverySweep(this.pool, this.attempts, logger, () => this.now());
  }

  /** Made where the app is composed (src/app/server.ts), attached to the job runner. */
  static register(deps: EngineParts): WebhookEngine {
    const engine = new WebhookEngine(deps);
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
          await engine.attempts.track(engine.attempts.attemptAll(job.attrs.data.deliveries ?? []));
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

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.dispatcher.start();
    // Whatever the last run left: deliveries whose job is gone.
    await this.sweeper.start();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.sweeper.stop();
    await this.dispatcher.stop();
    await this.attempts.drain();
    this.sender.close();
    await this.pool.end().catch(() => undefined);
  }

  /** Makes every attempt due by `now` at once, as their jobs would when their time comes; resolves when they are recorded. */
  async attemptDue(): Promise<void> {
    await this.sweeper.attemptDue();
  }

  /** The test endpoint: the first attempt of a fresh delivery is made within the request. */
  async attemptNow(id: string): Promise<void> {
    await this.attempts.track(this.attempts.attempt(id, 1));
  }
}
