import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, ValidationError } from '../core/errors.js';
import { claimKey, completeKey, keyRow, releaseKey } from './idempotency.queries.js';

/**
 * A write sent with an idempotency key runs once per person and key (docs/idempotency.md): the first
 * request claims the key and keeps its answer; a repeat of the same request answers that answer
 * without running, another request with the key is refused (422), and a repeat while the first still
 * runs is refused (409, as Stripe does: the client retries a moment later and gets the kept answer).
 * The edges (rest/idempotent-requests.ts, the connector's tools) say what a request and an answer are.
 */

/** A key is 1–255 visible ASCII characters (a UUID fits; Stripe's bound). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** The largest answer body kept; a larger one is answered but not kept (a repeat: IDEMPOTENCY_ANSWER_NOT_STORED). */
export const STORED_ANSWER_MAX_BYTES = 64 * 1024;

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function validKey(key: unknown): key is string {
  return typeof key === 'string' && KEY_PATTERN.test(key);
}

/** A malformed key is bad input like any other: VALIDATION_ERROR naming it. */
export function invalidKeyError(what: string, message = `${what} must be 1 to 255 visible ASCII characters (a UUID, for instance)`): AppError {
  return new ValidationError(message, [{ path: [what], message }]);
}

/** JSON with its object keys sorted, so a body sent again with its fields reordered is the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fingerprintOf(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

export interface KeyedRequest {
  userId: string;
  /** The stored key: the surface's prefix and the client's key. */
  key: string;
  fingerprint: string;
  now: Date;
}

/** What a keyed request answers: its own run, the first request's kept answer, or a refusal. */
export type Once<T> = { kind: 'ran'; result: T } | { kind: 'replayed'; answer: StoredAnswer } | { kind: 'refused'; error: AppError };

/** What a claim finds: the key is this request's to run (then `finishOnce`), or the first answer, or a refusal. */
export type Claim = { kind: 'claimed' } | Exclude<Once<never>, { kind: 'ran' }>;

const inProgress = () => new AppError('IDEMPOTENCY_KEY_IN_PROGRESS', 409, 'The first request with this idempotency key is still running: retry in a moment');

/**
 * Claims the key for this request, or answers what the key's first request left: its kept answer when
 * this is the same request, else a refusal. An edge whose run is not one function call (GraphQL's
 * plugin hooks) claims here and ends with `finishOnce`; others use `runOnce`.
 */
export async function claimOnce(em: EntityManager, request: KeyedRequest): Promise<Claim> {
  const { userId, key, fingerprint, now } = request;
  // A lost claim whose row is gone by the time it is read (given up, purged) claims again, a few times.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await claimKey(em, userId, key, fingerprint, now)) return { kind: 'claimed' };
    const row = await keyRow(em, userId, key);
    if (!row) continue;
    if (row.fingerprint !== fingerprint) {
      return { kind: 'refused', error: new AppError('IDEMPOTENCY_KEY_REUSED', 422, 'This idempotency key was used with another request in the last 24 hours: use a new key for a new request') };
    }
    if (row.status === null) return { kind: 'refused', error: inProgress() };
    if (row.body === null) {
      return {
        kind: 'refused',
        error: new AppError('IDEMPOTENCY_ANSWER_NOT_STORED', 409, 'The first request with this idempotency key ran, but its answer was too large to keep: read the record instead', { status: row.status }),
      };
    }
    return { kind: 'replayed', answer: { status: row.status, headers: row.headers ?? {}, body: row.body } };
  }
  return { kind: 'refused', error: inProgress() };
}

/** Ends a claimed key's run: keeps its answer for repeats, or (undefined) gives the key up so a retry runs again. */
export async function finishOnce(em: EntityManager, request: KeyedRequest, kept: StoredAnswer | undefined): Promise<void> {
  const { userId, key } = request;
  if (!kept) await releaseKey(em, userId, key);
  else await completeKey(em, userId, key, Buffer.byteLength(kept.body) > STORED_ANSWER_MAX_BYTES ? { ...kept, body: null } : kept);
}

/**
 * Runs `run` unless the key was claimed before. `keep` says what of the result is kept for repeats:
 * undefined when nothing is (the request wrote nothing, or failed in a way a retry may mend: the key
 * is given up). A throw gives the key up too.
 */
export async function runOnce<T>(em: EntityManager, request: KeyedRequest, run: () => Promise<T>, keep: (result: T) => StoredAnswer | undefined): Promise<Once<T>> {
  const claim = await claimOnce(em, request);
  if (claim.kind !== 'claimed') return claim;
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await releaseKey(em, request.userId, request.key);
    throw error;
  }
  await finishOnce(em, request, keep(result));
  return { kind: 'ran', result };
}
