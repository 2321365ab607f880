import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
import { NotFoundError } from '../core/errors.js';
import { recordEvent } from '../core/events/record-event.js';
import type { ServiceScope } from '../core/request-services.js';
import { UndoExpiredError } from './undo-errors.js';
import { claimCarriedToken, claimStoredToken, deleteExpiredUndoTokens } from './undo.queries.js';
import { undoKind, type UndoOffer } from './undo-kinds.js';
import { UndoToken } from './undo-token.entity.js';
import { UndoTokenCodec } from './undo-token-codec.js';

const codecs = new WeakMap<AppDeps, UndoTokenCodec>();
/** One codec per app, its key derived from the session secret (one secret to keep). */
function codecOf(deps: AppDeps): UndoTokenCodec {
  let codec = codecs.get(deps);
  if (!codec) codecs.set(deps, (codec = new UndoTokenCodec(deps.sessionTokens.derivedSecret('undo-tokens'))));
  return codec;
}

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

  /**
   * The token of a write that just committed. Its offer travels in the token, signed (no statement); an
   * offer too big for a header (a large snapshot) is kept in one `undo_tokens` row the token names.
   */
  async offer(userId: string, kind: string, offer: UndoOffer, now = new Date()): Promise<string> {
    const codec = codecOf(this.deps);
    const { claims, carried } = codec.claims(userId, kind, offer, new Date(now.getTime() + UNDO_TTL_MS));
    if (!carried) {
      const row = this.em.create(UndoToken, { id: claims.id, userId, kind, recordId: offer.recordId, data: offer.data, expiresAt: claims.expiresAt }, { persist: false });
      // One INSERT, not a flush: no transaction brackets around a single row.
      await this.em.insert(row);
    }
    return codec.encode(claims);
  }

  /**
   * Reverts the token's write by its kind's inverse, in one transaction with the token's use (single
   * use: a second undo finds no token) and the compensating `write_undone` event. Another person's or a
   * used token answers 404 like a missing one; an expired one 410 UNDO_EXPIRED; a record changed since
   * 409 UNDO_CONFLICT. `now` is the clock (tests pass their own). `allow` may refuse by the token's kind
   * (the connector's scopes) before anything is written.
   */
  async undo(userId: string, token: string, now = new Date(), allow?: (kind: string) => void): Promise<UndoneWrite> {
    const claims = codecOf(this.deps).decode(token);
    // A token this service did not sign, or another person's: the same answer as a missing one.
    if (!claims || claims.userId !== userId) throw new NotFoundError('Undo token');
    allow?.(claims.kind);
    if (claims.expiresAt.getTime() <= now.getTime()) throw new UndoExpiredError();
    const kind = undoKind(claims.kind);
    if (!kind) throw new NotFoundError('Undo token');
    return this.em.transactional(async (em) => {
      // Its use is written first, in this transaction: a concurrent undo of the same token waits on it
      // and then finds it used (404); a refused inverse rolls the use back, so the token stays usable.
      const data = claims.data
        ? ((await claimCarriedToken(em, claims, now)) && claims.data)
        : await claimStoredToken(em, claims.id, userId, now);
      if (!data) throw new NotFoundError('Undo token');
      await kind.invert({ em, deps: this.deps }, userId, { recordId: claims.recordId, data });
      recordEvent(em, userId, 'write_undone', { kind: claims.kind, recordId: claims.recordId, undoneAt: now.toISOString() }, now);
      await em.flush();
      return { kind: claims.kind, recordId: claims.recordId };
    });
  }

  /** Deletes expired tokens (a bounded chunk), for the hourly sweep. */
  async sweep(now = new Date(), limit = 1000): Promise<number> {
    return deleteExpiredUndoTokens(this.em, now, limit);
  }
}
