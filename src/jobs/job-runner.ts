import { Agenda } from 'agenda';
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
}

/**
 * Agenda on its PostgreSQL backend (same database, its own `agenda_jobs` table) by default, or on
 * MongoDB with JOBS_BACKEND=mongo. Jobs survive restarts: they live in the backend, not in memory.
 */
export async function createJobRunner(config: Config, databaseUrl: string, logger: Logger): Promise<JobRunner> {
  const backend =
    config.jobsBackend === 'mongo'
      ? new (await import('@agendajs/mongo-backend')).MongoBackend({ address: config.mongodbUrl! })
      : new (await import('@agendajs/postgres-backend')).PostgresBackend({ connectionString: databaseUrl });
  const agenda = new Agenda({ backend, processEvery: 1000 });
  agenda.on('error', (error: unknown) => logger.error({ err: error }, 'job runner error'));
  let started = false;
  const companions: JobCompanion[] = [];
  return {
    agenda,
    attach(companion) {
      companions.push(companion);
    },
    async start() {
      await agenda.start();
      started = true;
      for (const companion of companions) await companion.start();
    },
    async stop() {
      for (const companion of [...companions].reverse()) await companion.stop().catch((error) => logger.error({ err: error }, 'job companion stop failed'));
      if (started) await agenda.stop();
      else await agenda.stop().catch(() => undefined);
    },
    async ping() {
      await agenda.queryJobs({ name: '__readiness__', limit: 1 });
    },
  };
}
