import type { ServiceScope } from '../core/request-services.js';
import { NotFoundError } from '../core/errors.js';
import { UndoConflictError } from './undo-errors.js';

export type UndoArgs = Record<string, unknown>;

/** What a write leaves for its undo: the record it changed and what its inverse needs. */
export interface UndoOffer {
  recordId: string;
  data: Record<string, unknown>;
}

/**
 * One invertible write: the GraphQL mutation it is (so every surface built on it, GraphQL and REST,
 * offers the token), what to read before the write, what to keep after it (null: this call offers no
 * undo), and the inverse, which calls the domain's own service so its rules, XP, events, live changes
 * and the change feed follow as for any write. Kinds live in `src/undo/kinds/`, one file per family.
 */
export interface UndoKind {
  kind: string;
  mutation: string;
  before?(scope: ServiceScope, userId: string, args: UndoArgs): Promise<unknown>;
  offer(scope: ServiceScope, userId: string, args: UndoArgs, result: unknown, before: unknown): Promise<UndoOffer | null> | UndoOffer | null;
  invert(scope: ServiceScope, userId: string, offer: UndoOffer): Promise<void>;
}

/** The record's version now is the one the write left: otherwise someone changed it since (refused). */
export function requireUnchanged(found: { version: number } | null, offer: UndoOffer, resource: string): void {
  if (!found) throw new NotFoundError(resource);
  if (found.version !== offer.data.version) throw new UndoConflictError(resource, found.version);
}

/**
 * For records without a `version`: the record is still there and its `updatedAt` is the one the write
 * left (kept as ISO text in the offer's `updatedAt`); otherwise someone changed or removed it since (409).
 */
export function requireUntouched(found: { updatedAt: Date } | null, offer: UndoOffer, resource: string): void {
  if (!found || found.updatedAt.toISOString() !== offer.data.updatedAt) throw new UndoConflictError(resource);
}

/** The values a write left are still there (compared as JSON); otherwise a later change came since (409). */
export function requireSameValues(current: Record<string, unknown> | null, left: unknown, resource: string): void {
  if (!current) throw new UndoConflictError(resource);
  const expected = left as Record<string, unknown>;
  for (const key of Object.keys(expected)) {
    if (!sameValue(current[key] ?? null, expected[key] ?? null)) throw new UndoConflictError(resource);
  }
}

/** Equal as JSON, or the same number (a decimal column reads back as text: '250.00' is 250). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (JSON.stringify(a) === JSON.stringify(b)) return true;
  const numeric = (v: unknown) => (typeof v === 'number' || (typeof v === 'string' && v.trim() !== '')) && Number.isFinite(Number(v));
  return numeric(a) && numeric(b) && Number(a) === Number(b);
}
