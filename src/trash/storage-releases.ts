import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
import { forgetRelease, insertReleases, leaseDue, postponeRelease, type Release } from './storage-releases.queries.js';
import type { StoredObjects } from './trash-kinds.js';

/*
 * Storage freed by the trash (a purged file's original and variants) is deleted for sure: what to delete
 * is recorded in `trash_storage_releases` in the transaction that deletes the entry, tried right after
 * its commit, and while storage fails (S3 down) tried again by the `trash:release-storage` job with
 * backoff, never given up (docs/trash.md). Deleting a prefix twice is harmless, so a retry after a crash
 * or a lost answer does no harm.
 */

/** Releases tried per job run: a run is bounded, the rest waits for the next one. */
export const RELEASES_PER_RUN = 50;
/** A release being tried is not tried by another run before this (an attempt that died is taken again after). */
const LEASE_MS = 15 * 60_000;
const MINUTE_MS = 60_000;
const MAX_BACKOFF_MS = 6 * 60 * MINUTE_MS;

/** After the `attempts`-th failure: 1, 2, 4 … minutes, at most 6 hours apart. */
export const releaseBackoffMs = (attempts: number): number => Math.min(MINUTE_MS * 2 ** Math.min(attempts - 1, 20), MAX_BACKOFF_MS);

/** Records, in the caller's transaction, storage to delete once it commits; answers them for `release`. */
export async function recordReleases(em: EntityManager, objects: StoredObjects[], now: Date): Promise<Release[]> {
  if (objects.length === 0) return [];
  const releases = objects.map((o) => ({ id: randomUUID(), adapter: o.adapter, prefix: o.prefix, attempts: 0 }));
  // Leased from the start: the attempt after the commit is this one's own.
  await insertReleases(em, releases, now, new Date(now.getTime() + LEASE_MS));
  return releases;
}

/** Deletes each release's objects; done ones are forgotten, failed ones wait for their backoff. Answers how many succeeded. */
export async function release(deps: AppDeps, releases: Release[], now: Date): Promise<number> {
  const em = deps.orm.em.fork();
  let done = 0;
  for (const item of releases) {
    try {
      await deps.files.adapter(item.adapter as Parameters<AppDeps['files']['adapter']>[0]).deletePrefix(item.prefix);
      await forgetRelease(em, item.id);
      done++;
    } catch (error) {
      const attempts = item.attempts + 1;
      const next = new Date(now.getTime() + releaseBackoffMs(attempts));
      deps.logger.warn({ err: error, adapter: item.adapter, attempts, next }, 'trash storage could not be deleted; trying again later');
      await postponeRelease(em, item.id, attempts, next, String((error as Error)?.message ?? error).slice(0, 1000));
    }
  }
  return done;
}

/** One run of the retry: up to `limit` releases due at `now`, leased (SKIP LOCKED: two runs never take the same), then tried. */
export async function releaseDue(deps: AppDeps, now: Date, limit = RELEASES_PER_RUN): Promise<{ tried: number; done: number }> {
  const due = await leaseDue(deps.orm.em.fork(), now, limit, new Date(now.getTime() + LEASE_MS));
  return { tried: due.length, done: await release(deps, due, now) };
}
