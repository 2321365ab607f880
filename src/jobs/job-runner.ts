import { Agenda, type Job } from 'agenda';
import pg from 'pg';
import { resilientPool } from '../core/database/resilient-pool.js';
import { startScheduled } from '../core/scheduled-work.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';

export type { Agenda };

/** Work that runs beside the job runner: started after it, stopped before it. */
export interface JobCompanion {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface JobRunner {
  agenda: Agenda;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Registers a companion (e.g. the webhook dispatcher); call before start. */
  attach(companion: JobCompanion): void;
  /** Throws when the job backend cannot be reached (readiness). */
  ping(): Promise<void>;
  /**
   * Runs long work that checks `signal` between its steps: `stop()` aborts the signal and waits (up to
   * STOP_WAIT_MS) for the work to end before it stops Agenda, so the work can put itself back in the queue.
   */
  untilStopped<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /**
   * Runs a job whose work may outlast its lock lifetime, in steps that check `signal` (see `untilStopped`):
   * the lock is renewed (`touch()`) every third of its lifetime while the work runs, so no step can
   * outlive it however long the step takes; and `signal` also aborts when the lock is lost anyway (Agenda
   * cancelled the job: the process was held past the lifetime, or the backend was away), so the work
   * stops after its step and puts itself back in the queue instead of going on unguarded.
   */
  keepingLock<T>(job: Job, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/** How long a shutdown waits for long jobs to stop after their current step. */
const STOP_WAIT_MS = 10_000;

/** Agenda cancelled the job (its lock expired): the work holding it must stop. */
export class JobLockLost extends Error {}

/** How often a long job looks whether Agenda cancelled it (a local flag: costs nothing). */
const CANCEL_CHECK_MS = 1000;

/**
 * Renews `job`'s lock every third of its lifetime until the returned function is called, and aborts
 * `lost` as soon as Agenda has cancelled the job (its expiry check cancels it and abandons the run's
 * promise without stopping the work, so the work must be told; `touch()` then refuses).
 */
function renewLock(job: Job, lifetimeMs: number, lost: AbortController, logger: Logger): () => void {
  const renewEvery = Math.max(10, Math.floor(lifetimeMs / 3));
  let renewed = Date.now();
  const check = () => {
    const cancelled = job.getCanceledMessage();
    if (cancelled) {
      lost.abort(new JobLockLost(String(cancelled)));
      return;
    }
    if (Date.now() - renewed < renewEvery) return;
    renewed = Date.now();
    job.touch().catch((error: unknown) => {
      // A backend error is tried again at the next check; a cancelled job is seen by the check above.
      if (!job.getCanceledMessage()) logger.warn({ err: error, job: job.attrs.name }, 'could not renew a job lock; retrying');
      renewed = 0;
    });
  };
  const timer = setInterval(check, Math.min(CANCEL_CHECK_MS, renewEvery));
  return () => clearInterval(timer);
}

/**
 * Creates Agenda's table once, serialised across instances: the backend's own `CREATE TABLE IF NOT
 * EXISTS` is not safe when two instances start together on a new database (one fails on pg_type).
 */
async function ensureAgendaSchema(connectionString: string): Promise<void> {
  const { PostgresJobRepository } = await import('@agendajs/postgres-backend');
  const lock = new pg.Client({ connectionString });
  lock.on('error', () => undefined); // a lost connection fails the query below instead
  await lock.connect();
  try {
    await lock.query("SELECT pg_advisory_lock(hashtext('life-planner:agenda-schema'))");
    const repository = new PostgresJobRepository({ connectionString, ensureSchema: true });
    try {
      await repository.connect();
    } finally {
      await repository.close();
    }
  } finally {
    await lock.end(); // ending the session releases the lock
  }
}

/**
 * Agenda's connections are made here rather than by its backend, so that a connection the database
 * drops (a restart, `pg_terminate_backend`) is logged and replaced instead of ending the process: the
 * backend's own pool has no error listener. Agenda polls again on its next tick.
 */
function jobPool(connectionString: string, logger: Logger, max: number, purpose: string): pg.Pool {
  // A bounded wait for a connection: a request for one fails while the database is away instead of hanging.
  return resilientPool({ connectionString, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 }, logger, purpose);
}

/**
 * Agenda on its PostgreSQL backend (same database, its own `agenda_jobs` table) by default, or on
 * MongoDB with JOBS_BACKEND=mongo. Jobs survive restarts: they live in the backend, not in memory.
 */
export async function createJobRunner(config: Config, databaseUrl: string, logger: Logger): Promise<JobRunner> {
  let backend;
  let notificationChannel;
  const pools: pg.Pool[] = [];
  if (config.jobsBackend === 'mongo') {
    backend = new (await import('@agendajs/mongo-backend')).MongoBackend({ address: config.mongodbUrl! });
  } else {
    await ensureAgendaSchema(databaseUrl);
    const { PostgresBackend, PostgresNotificationChannel } = await import('@agendajs/postgres-backend');
    const pool = jobPool(databaseUrl, logger, 5, 'jobs');
    backend = new PostgresBackend({ pool, ensureSchema: false, disableNotifications: true });
    // The LISTEN/NOTIFY channel on a pool of its own: a connection it loses while (re)connecting is not
    // handed back to its pool, and must not take the job queries' connections with it. It reconnects
    // by itself; its errors must not go unheard (an EventEmitter's unheard 'error' ends the process).
    const listenPool = jobPool(databaseUrl, logger, 2, 'job notifications');
    notificationChannel = new PostgresNotificationChannel({ pool: listenPool, reconnect: { enabled: true, initialDelayMs: 1000, maxDelayMs: 30_000 } });
    notificationChannel.on('error', (error: unknown) => logger.warn({ err: error }, 'job notification channel error; reconnecting'));
    pools.push(pool, listenPool);
  }
  const agenda = new Agenda({ backend, notificationChannel, processEvery: 1000 });
  agenda.on('error', (error: unknown) => logger.error({ err: error }, 'job runner error'));
  let started = false;
  const companions: JobCompanion[] = [];
  const stopping = new AbortController();
  const longWork = new Set<Promise<unknown>>();
  const untilStopped = <T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const running = work(stopping.signal);
    const settled = running.catch(() => undefined);
    longWork.add(settled);
    void settled.finally(() => longWork.delete(settled));
    return running;
  };
  return {
    agenda,
    attach(companion) {
      companions.push(companion);
    },
    start() {
      // Marked as scheduled work: what Agenda's poll and the companions' timers run later is told apart from requests.
      return startScheduled(async () => {
        await agenda.start();
        started = true;
        for (const companion of companions) await companion.start();
      });
    },
    untilStopped,
    keepingLock(job, work) {
      const lifetime = agenda.definitions[job.attrs.name]?.lockLifetime ?? agenda.attrs.defaultLockLifetime;
      return untilStopped((stopped) => {
        const lost = new AbortController();
        const stopRenewing = renewLock(job, lifetime, lost, logger);
        return work(AbortSignal.any([stopped, lost.signal])).finally(stopRenewing);
      });
    },
    async stop() {
      stopping.abort();
      if (longWork.size) await Promise.race([Promise.all(longWork), new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
      for (const companion of [...companions].reverse()) await companion.stop().catch((error) => logger.error({ err: error }, 'job companion stop failed'));
      try {
        if (started) await agenda.stop();
        else await agenda.stop().catch(() => undefined);
      } finally {
        for (const pool of pools) await pool.end().catch(() => undefined);
      }
    },
    async ping() {
      await agenda.queryJobs({ name: '__readiness__', limit: 1 });
    },
  };
}

declare module '../core/context.js' {
  interface AppDeps {
    jobs: JobRunner;
  }
}
