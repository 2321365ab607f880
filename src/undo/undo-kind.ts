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
