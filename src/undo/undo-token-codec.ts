import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { UndoOffer } from './undo-kind.js';

/** What a token carries: who may use it, which write it reverts, until when. */
export interface UndoClaims {
  /** The token's own id: a used token is recorded under it (single use). */
  id: string;
  userId: string;
  kind: string;
  recordId: string;
  expiresAt: Date;
  /** The offer's data, or undefined when it was too big for a token and is kept in its `undo_tokens` row. */
  data?: Record<string, unknown>;
}

/** Offers whose data encodes longer than this are kept in a row (the token names it) rather than carried. */
export const MAX_CARRIED_DATA_BYTES = 2048;
/** Longer than any token this service makes: refused before any decoding. */
const MAX_TOKEN_LENGTH = 4096;

interface Payload {
  i: string;
  u: string;
  k: string;
  r: string;
  e: number;
  d?: Record<string, unknown>;
}

/**
 * Undo tokens signed rather than stored (docs/undo.md): a write offers its undo without a row, so an
 * undoable write costs no statement beyond what its inverse needs to read. The token is the offer itself,
 * as base64url JSON with an HMAC-SHA256 of it under a key derived from the session secret; only its use
 * is written (single use).
 */
export class UndoTokenCodec {
  constructor(private readonly key: string) {}

  /** A new token's claims for `offer`; `carry` false when its data goes to a row instead. */
  claims(userId: string, kind: string, offer: UndoOffer, expiresAt: Date): { claims: UndoClaims; carried: boolean } {
    const carried = Buffer.byteLength(JSON.stringify(offer.data)) <= MAX_CARRIED_DATA_BYTES;
    return { claims: { id: randomUUID(), userId, kind, recordId: offer.recordId, expiresAt, data: carried ? offer.data : undefined }, carried };
  }

  encode(claims: UndoClaims): string {
    const payload: Payload = { i: claims.id, u: claims.userId, k: claims.kind, r: claims.recordId, e: claims.expiresAt.getTime(), ...(claims.data ? { d: claims.data } : {}) };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The claims of a token this service signed; null for anything else (altered, truncated, made up). */
  decode(token: string): UndoClaims | null {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
      return { id: p.i, userId: p.u, kind: p.k, recordId: p.r, expiresAt: new Date(p.e), data: p.d };
    } catch {
      return null;
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
