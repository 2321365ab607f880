import type { EntityManager } from '@mikro-orm/postgresql';
import { rowCapViolation } from '../core/database/row-caps.js';
import { RuleViolationError } from '../core/errors.js';
import { recordLiveChange } from '../core/live/change-collector.js';
import { entityOfTable } from '../core/live/reported-rows.queries.js';
import { reinsert, snapshotWithin, type KeptSnapshot } from './kept-snapshot.queries.js';
import { UndoConflictError } from './undo-errors.js';

/**
 * The bound of a kept delete (docs/undo.md): a delete that takes more rows and nulled references than
 * this (a project with hundreds of cards), or whose snapshot is bigger than this in JSON, offers no undo
 * token rather than holding it in memory and in `undo_tokens`.
 */
export const UNDO_SNAPSHOT_ROWS = 500;
export const UNDO_SNAPSHOT_BYTES = 512 * 1024;

/** What deleting the user's row `id` of `table` will take with it (the trash's catalog-driven snapshot), or null past the bound. */
export async function keepSnapshot(em: EntityManager, table: string, userId: string, id: string): Promise<KeptSnapshot | null> {
  const snapshot = await snapshotWithin(em, table, userId, id, UNDO_SNAPSHOT_ROWS);
  if (!snapshot) return null;
  snapshot.rows = lastOfEach(snapshot.rows);
  return Buffer.byteLength(JSON.stringify(snapshot)) > UNDO_SNAPSHOT_BYTES ? null : snapshot;
}

/**
 * A row a delete reaches by two cascades (a project's card: through the project and through its column)
 * is in the snapshot twice: the last of each is kept. Every time a parent is read its children are read
 * after it, so the last copy of a row still comes after the last copy of each of its parents.
 */
function lastOfEach(rows: KeptSnapshot['rows']): KeptSnapshot['rows'] {
  const seen = new Set<string>();
  const kept: KeptSnapshot['rows'] = [];
  for (let i = rows.length - 1; i >= 0; i--) {
    const key = `${rows[i]!.table}:${String(rows[i]!.row.id)}`;
    if (!seen.has(key)) kept.push(rows[i]!);
    seen.add(key);
  }
  return kept.reverse();
}

const FOREIGN_KEY_VIOLATION = '23503';
const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';

/**
 * Re-inserts the kept rows with their ids (the trash's `reinsert`) and reports them to the live updates
 * and the change feed as created (and the references set back as updated), as the trash's restore does.
 * A refusal is an answer, never a 500: a name or place taken since is 409 UNDO_CONFLICT; a parent gone
 * or a rule (a full day) is 400 VALIDATION_ERROR with `details.rule`.
 */
export async function putBack(em: EntityManager, userId: string, snapshot: KeptSnapshot, resource: string): Promise<void> {
  try {
    await reinsert(em, snapshot);
  } catch (error) {
    throw refusal(error, resource);
  }
  for (const { table, row } of snapshot.rows) {
    recordLiveChange(em, userId, { entity: entityOfTable(em, table) ?? table, id: String(row.id), kind: 'created' });
  }
  for (const link of snapshot.links) {
    const entity = entityOfTable(em, link.table);
    if (entity) for (const id of link.ids) recordLiveChange(em, userId, { entity, id, kind: 'updated' });
  }
}

function refusal(error: unknown, resource: string): unknown {
  const cap = rowCapViolation(error);
  if (cap) return cap;
  const code = (error as { code?: string }).code;
  if (code === UNIQUE_VIOLATION) return new UndoConflictError(resource, undefined, 'taken');
  if (code === FOREIGN_KEY_VIOLATION) {
    return new RuleViolationError('undo_parent_gone', `What this ${resource.toLowerCase()} belonged to was deleted since: its delete cannot be undone`);
  }
  if (code === CHECK_VIOLATION) return new RuleViolationError('undo_rule', `The ${resource.toLowerCase()} would break a rule now: its delete cannot be undone`);
  return error;
}
