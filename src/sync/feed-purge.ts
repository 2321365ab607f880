import type { EntityManager } from '@mikro-orm/postgresql';
import { purgeFeedChunk } from './sync.queries.js';

/** Feed rows removed per statement; a run stops after `MAX_CHUNKS` of them and the next run goes on. */
export const PURGE_CHUNK = 5_000;
const MAX_CHUNKS = 200;

/**
 * Removes the change-feed rows that changed before `before`, in chunks (each one statement, its own
 * transaction), and raises each person's horizon to the newest cursor removed: a `since` below it may
 * have lost a change, so the sync answers 410 for it. Answers how many rows went.
 */
export async function purgeFeed(em: EntityManager, before: Date, signal?: AbortSignal): Promise<number> {
  let removed = 0;
  for (let chunk = 0; chunk < MAX_CHUNKS && !signal?.aborted; chunk++) {
    const n = await purgeFeedChunk(em, before, PURGE_CHUNK);
    removed += n;
    if (n < PURGE_CHUNK) break;
  }
  return removed;
}
