import type pg from 'pg';
import { Slots } from '../core/concurrency-slots.js';
import type { AppDeps, EngineParts } from '../core/context.js';
import { resilientPool } from '../core/database/resilient-pool.js';
import type { Logger } from '../core/logger.js';
import { EmailChannel } from './channels/email.js';
import { GuardedPost } from '../http/guarded-post.js';
import { PushUrlChannel } from './channels/push-url.js';
import { WebPushChannel } from './channels/web-push.js';
import { DeliveryDispatcher, MAIL_SEND_MS, MAX_ATTEMPTS } from './delivery-dispatcher.js';
import { dueWork, failExhaustedDeliveries } from './reminder-engine.queries.js';
import { ReminderScanner } from './reminder-scanner.js';
import { PushDeliveryHealth } from './push-health.js';
import { loadVapidKeys, type VapidKeys } from './vapid-keys.js';

declare module '../core/context.js' {
  interface Engines {
    /** Reminders at run time: scanner and dispatcher (ReminderEngine.register). */
    reminders: ReminderEngine;
  }
}

/**
 * Kind reads (next occurrence, still due, message) at once per process, on the ORM's pool of 10. Measured
 * (bench `reminders-due`, 10,000 due together): 4 sent 496/s, 8 sent 943/s, and a session read during the
 * burst answered alike (p99 104 and 85 ms): each read holds a connection only for its statement.
 */
const KIND_CONCURRENCY = 8;
/** Characters of a receiver's answer kept (in a delivery's error). */
const RESPONSE_BODY_MAX = 300;
/**
 * How far ahead reminders are claimed: an occurrence due within this is made a delivery at once and
 * sent at its due time by a timer, so at a busy minute only the sending is left to do.
 */
export const LOOKAHEAD_MS = 60_000;

/**
 * Reminders at run time, on a pool of their own: one periodic loop per instance (REMINDER_SCAN_INTERVAL_MS)
 * asks one indexed question (is any reminder or delivery due?) and, when something is,
 * - the scanner (reminder-scanner.ts) turns reminders due within LOOKAHEAD_MS into deliveries in committed
 *   batches and moves each reminder to its next occurrence; a timer wakes the dispatcher at the first
 *   delivery's due time;
 * - the dispatcher (delivery-dispatcher.ts) claims due deliveries under a lease and sends them on their
 *   channel (Web Push, email, push URL). The same claim is the sweep: deliveries held by quiet hours,
 *   retries, and those a crashed instance leased are all "pending and due".
 * No job per reminder: the work is rows, shared by every instance through FOR UPDATE SKIP LOCKED.
 * Started after the job runner and stopped before it; a stop lets sends in flight finish and record.
 */
export class ReminderEngine {
  private readonly pool: pg.Pool;
  private readonly poster: GuardedPost;
  private readonly vapid: Promise<VapidKeys>;
  private readonly scanner: ReminderScanner;
  readonly dispatcher: DeliveryDispatcher;
  /** How this instance's recent push sends went (/readyz). */
  readonly pushHealth = new PushDeliveryHealth();
  private readonly logger: Logger;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  /** Wakes the dispatcher when the next pending delivery may be sent (sooner than the next tick). */
  private wake: { at: number; timer: NodeJS.Timeout } | undefined;
  private started = false;
  private stopped = false;

  /** `app`: the composed deps (this engine among them), which the kinds' services are made from when they run. */
  constructor(deps: EngineParts, app: () => AppDeps) {
    this.logger = deps.logger.child({ module: 'reminders' });
    const { config } = deps;
    this.intervalMs = config.reminders.scanIntervalMs;
    this.pool = resilientPool({ connectionString: deps.orm.config.get('clientUrl')!, max: 4, idleTimeoutMillis: 30_000 }, this.logger, 'reminders');
    this.poster = new GuardedPost({
      timeoutMs: config.reminders.sendTimeoutMs,
      allowPrivateUrls: config.reminders.allowPrivateUrls,
      userAgent: 'life-planner-reminders/1',
      maxBodyChars: RESPONSE_BODY_MAX,
    });
    this.vapid = loadVapidKeys(config.reminders, config.dataDir);
    this.vapid.catch((error) => this.logger.error({ err: error }, 'could not load or make the VAPID keys'));
    const kindSlots = new Slots(KIND_CONCURRENCY);
    this.dispatcher = new DeliveryDispatcher({
      pool: this.pool,
      deps: app,
      logger: this.logger,
      kindSlots,
      channels: {
        web_push: new WebPushChannel(this.poster, this.pool, { keys: this.vapid, subject: config.reminders.vapidSubject, ttlSeconds: config.reminders.webPushTtlSeconds }),
        email: new EmailChannel(deps.mailer, () => config.baseUrl, MAIL_SEND_MS),
        push_url: new PushUrlChannel(this.poster, this.pool),
      },
      baseUrl: () => config.baseUrl,
      appUrl: () => config.reminders.appUrl,
      sendsPerMinute: config.reminders.sendsPerMinute,
      timeoutMs: config.reminders.sendTimeoutMs,
      leaseMs: config.reminders.leaseMs,
      backoffUnitMs: config.reminders.backoffUnitMs,
      pushHealth: this.pushHealth,
    });
    this.scanner = new ReminderScanner({ pool: this.pool, deps: app, logger: this.logger, kindSlots, onDeliveries: (at) => this.wakeAt(at) });
  }

  /** Made where the app is composed (src/app/server.ts), attached to the job runner. */
  static register(deps: EngineParts, app: () => AppDeps): ReminderEngine {
    const engine = new ReminderEngine(deps, app);
    deps.jobs.attach(engine);
    return engine;
  }

  /** The application server key browsers subscribe with. */
  async vapidPublicKey(): Promise<string> {
    return (await this.vapid).publicKey;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // Whatever came due while no instance ran is picked up by the first tick, at once.
    this.schedule(0);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.wake?.timer);
    await this.ticking?.catch(() => undefined);
    await this.dispatcher.drain();
    this.poster.close();
    await this.pool.end().catch(() => undefined);
  }

  /**
   * One scan as of `now`: claims the reminders due by now + LOOKAHEAD_MS, sends what is due and sets the
   * wake-up for what is due next (tests pass a fixed instant to walk a reminder through chosen dates;
   * the loop passes the clock).
   */
  async scanOnce(now: Date = new Date()): Promise<void> {
    const due = await dueWork(this.pool, now, new Date(now.getTime() + LOOKAHEAD_MS));
    if (due.deliveries) await failExhaustedDeliveries(this.pool, now, MAX_ATTEMPTS);
    if (due.deliveries) this.dispatcher.nudge();
    if (due.nextDeliveryAt) this.wakeAt(due.nextDeliveryAt);
    if (due.reminders) await this.scanner.run(now, new Date(now.getTime() + LOOKAHEAD_MS), () => this.stopped);
  }

  /** Nudges the dispatcher at `at` (at once when it has passed), unless a wake-up is set sooner. */
  private wakeAt(at: Date): void {
    if (this.stopped) return;
    const ms = at.getTime() - Date.now();
    if (ms <= 0) {
      this.dispatcher.nudge();
      return;
    }
    // Later than the next tick: that tick sets it.
    if (ms > this.intervalMs + LOOKAHEAD_MS) return;
    if (this.wake && this.wake.at <= at.getTime()) return;
    clearTimeout(this.wake?.timer);
    // A timer may fire a millisecond early (its clock rounds): a few more make sure the delivery is due.
    const timer = setTimeout(() => {
      this.wake = undefined;
      this.dispatcher.nudge();
    }, ms + 5);
    timer.unref();
    this.wake = { at: at.getTime(), timer };
  }

  /** Resolves when nothing is being claimed or sent (tests, the benchmark). */
  idle(): Promise<void> {
    return this.dispatcher.idle();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.scanOnce()
        .catch((error) => this.logger.error({ err: error }, 'reminder scan failed'))
        .finally(() => {
          this.ticking = undefined;
          this.schedule(this.intervalMs);
        });
    }, ms);
    this.timer.unref();
  }
}
