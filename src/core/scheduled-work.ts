import { AsyncLocalStorage } from 'node:async_hooks';

const scheduled = new AsyncLocalStorage<true>();

/**
 * Starts the service's scheduled work (the job runner: Agenda's poll and the engines beside it) so that
 * everything its timers and listeners later run carries a mark: a timer or socket callback runs in the
 * async context it was made in. Not the work a request starts (that is the request's).
 */
export function startScheduled<T>(start: () => Promise<T>): Promise<T> {
  return scheduled.run(true, start);
}

/**
 * Whether the caller runs as scheduled work (see startScheduled): lets a statement count of a request
 * leave out a job that shares the ORM's connections (a recurring job forks the ORM's EntityManager).
 */
export function isScheduledWork(): boolean {
  return scheduled.getStore() === true;
}
