import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
import { NotFoundError } from '../core/errors.js';
import { recordEvent } from '../core/events/record-event.js';
import type { ServiceScope } from '../core/request-services.js';
import { UndoExpiredError } from './undo-errors.js';
import { deleteExpiredUndoTokens } from './undo.queries.js';
import { undoKind, type UndoOffer } from './undo-kinds.js';
import { UndoToken } from './undo-token.entity.js';

/** How long a write can be undone: long enough for a "Undo" snackbar and a second look, short enough to stay a mistake's fix. */
export const UNDO_TTL_MS = 10 * 60_000;

export interface UndoneWrite {
  kind: string;
  recordId: string;
}

/** Undo tokens of one person: offered after a write, used once (docs/undo.md). */
export class UndoService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppDeps,
  ) {}

  static forRequest = (scope: ServiceScope): UndoService => new UndoService(scope.em, scope.deps);

  /** Keeps the offer of a write that just committed; answers its token. */
  async offer(userId: string, kind: string, offer: UndoOffer, now = new Date()): Promise<string> {
    const token = this.em.create(UndoToken, { userId, kind, recordId: offer.recordId, data: offer.data, expiresAt: new Date(now.getTime() + UNDO_TTL_MS) }, { persist: false });
    // One INSERT, not a flush: no transaction brackets around a single row.
    await this.em.insert(token);
    return token.id;
  }

  /**
   * Reverts the token's write by its kind's inverse, in one transaction with the token's use (single
   * use: a second undo finds no token) and the compensating `write_undone` event. Another person's or a
   * used token answers 404 like a missing one; an expired one 410 UNDO_EXPIRED; a record changed since
   * 409 UNDO_CONFLICT. `now` is the clock (tests pass their own). `allow` may refuse by the token's kind
   * (the connector's scopes) before anything is written.
   */
  async undo(userId: string, tokenId: string, now = new Date(), allow?: (kind: string) => void): Promise<UndoneWrite> {
    return this.em.transactional(async (em) => {
      const token = await em.findOne(UndoToken, { id: tokenId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!token) throw new NotFoundError('Undo token');
      allow?.(token.kind);
      if (token.expiresAt.getTime() <= now.getTime()) throw new UndoExpiredError();
      const kind = undoKind(token.kind);
      if (!kind) throw new NotFoundError('Undo token');
      await kind.invert({ em, deps: this.deps }, userId, { recordId: token.recordId, data: token.data });
      em.remove(token);
      recordEvent(em, userId, 'write_undone', { kind: token.kind, recordId: token.recordId, undoneAt: now.toISOString() }, now);
      await em.flush();
      return { kind: token.kind, recordId: token.recordId };
    });
  }

  /** Deletes expired tokens (a bounded chunk), for the hourly sweep. */
  async sweep(now = new Date(), limit = 1000): Promise<number> {
    return deleteExpiredUndoTokens(this.em, now, limit);
  }
}
