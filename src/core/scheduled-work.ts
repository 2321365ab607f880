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
 * Runs work a request starts and does not wait for (an upload's image variants) as scheduled work: it
 * is not the request's, and a later request's count must not catch it.
 */
export function detach<T>(work: () => Promise<T>): Promise<T> {
  return scheduled.run(true, work);
}

/**
 * Whether the caller runs as scheduled work (see startScheduled): lets a statement count of a request
 * leave out a job that shares the ORM's connections (a recurring job forks the ORM's EntityManager).
 */
export function isScheduledWork(): boolean {
  return scheduled.getStore() === true;
}
