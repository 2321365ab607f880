import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../../core/database/read-rows.js';
import type { ExerciseNames, RefusedRow } from './import-run.entity.js';

/** The imports' hand-written SQL: the claim of an import by one runner, and each chunk's counts. */

export interface ImportState {
  status: string;
  /** Its heartbeat is fresh: a runner holds it. */
  live: boolean;
  /** Another import of the same user is running with a fresh heartbeat. */
  other: boolean;
}

/**
 * Takes the user's import lock for the transaction (one import of a user is claimed at a time), then
 * reads the import's state; undefined when the import is gone.
 */
export async function lockedImportState(tx: EntityManager, importId: string, staleSeconds: number): Promise<ImportState | undefined> {
  const [row] = (await queryRows(tx, 'select user_id from account_imports where id = $1', [importId])) as { user_id: string }[];
  if (!row) return undefined;
  await queryRows(tx, 'select pg_advisory_xact_lock(hashtext($1))', [`life-planner:import:${row.user_id}`]);
  const [state] = (await queryRows(
    tx,
    `select status, coalesce(heartbeat_at > now() - make_interval(secs => $2), false) as live,
            exists (select 1 from account_imports o where o.user_id = i.user_id and o.id <> i.id and o.status = 'running'
                    and o.heartbeat_at > now() - make_interval(secs => $2)) as other
       from account_imports i where id = $1`,
    [importId, staleSeconds],
  )) as unknown as ImportState[];
  return state;
}

export async function markRunning(tx: EntityManager, importId: string): Promise<void> {
  await queryRows(tx, `update account_imports set status = 'running', heartbeat_at = now(), started_at = coalesce(started_at, now()) where id = $1`, [importId]);
}

export interface ChunkCounts {
  rows: number;
  created: number;
  skipped: number;
  refusedTotal: number;
  /** The refused rows kept so far (the first MAX_REFUSALS_KEPT). */
  refused: RefusedRow[];
  exerciseNames: ExerciseNames | null;
}

/**
 * Adds a chunk's counts to the import and beats its heart, in the chunk's transaction, moving the cursor
 * (`rows_done`) from `cursor` on. False when the cursor is elsewhere: another runner wrote these rows.
 */
export async function addChunkCounts(tx: EntityManager, importId: string, cursor: number, c: ChunkCounts): Promise<boolean> {
  const moved = await queryRows(
    tx,
    `update account_imports set rows_done = rows_done + $2, created = created + $3, skipped = skipped + $4,
            refused_total = refused_total + $5, refused = $6::jsonb, exercise_names = $7::jsonb, heartbeat_at = now()
      where id = $1 and rows_done = $8 returning id`,
    [importId, c.rows, c.created, c.skipped, c.refusedTotal, JSON.stringify(c.refused), c.exerciseNames ? JSON.stringify(c.exerciseNames) : null, cursor],
  );
  return moved.length === 1;
}
