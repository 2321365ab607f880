import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type { AppContext } from '../src/core/context.js';
import { appErrorBody } from '../src/core/errors.js';
import { canonicalJson, fingerprintOf, invalidKeyError, runOnce, validKey, type StoredAnswer } from '../src/idempotency/run-once.js';
import type { BodyRead } from './request-body.js';
import { errorAnswer, type RestAnswer } from './rest-answer.js';

/**
 * The `Idempotency-Key` header of both REST surfaces (docs/idempotency.md), applied by the surface to
 * every write route (rest/sofa-surface.ts), so no route opts in. A GET or HEAD ignores the header.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on an answer that is the kept answer of the key's first request (as Stripe does). */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * The headers an operation may set on `res` that belong to its answer (the limiter's are the repeat's own):
 * a retry after a lost answer gets the record's ETag (docs/concurrency.md) and the write's undo token
 * (docs/undo.md) as the first request would have.
 */
const KEPT_RESPONSE_HEADERS = ['location', 'retry-after', 'etag', 'undo-token'];

/** The request's key when it is a write that sent one (undefined otherwise). */
export function idempotencyKeyOf(req: ExpressRequest): string | string[] | undefined {
  return WRITE_METHODS.has(req.method) ? req.headers[IDEMPOTENCY_KEY_HEADER] : undefined;
}

/** Refused: a keyed write the surface answers on Sofa's path (a bracketed query, a path ending in `/`). */
export function keyNotSupportedHere(): RestAnswer {
  const message = 'Idempotency-Key is accepted on a plain request target only (no bracketed query parameters, no trailing slash)';
  return errorAnswer(appErrorBody(invalidKeyError('Idempotency-Key', message)));
}

/** The person a surface's context speaks for: the API key's owner, or the session's user. */
function personOf(context: AppContext): string | undefined {
  return context.apiKey?.userId ?? context.auth?.user.id;
}

export interface KeyedWrite {
  req: ExpressRequest;
  res: ExpressResponse;
  key: string | string[];
  context: AppContext;
  body: BodyRead;
  now: Date;
  /** The request's normal answer; `operation` is set when it passed the checks and its operation ran. */
  run(): Promise<{ answer: RestAnswer; operation?: string }>;
}

/**
 * Answers a keyed write once per person and key. Kept for repeats: the answer of an operation that ran,
 * a success or a refusal by its rules (404, 409, 422: as final as a success). Not kept, the key given
 * up (nothing was written, so a retry may run): a refusal before the operation (a bad route, access,
 * media type or size), a 400 (bad input: the corrected request may reuse the key, as Stripe allows)
 * and a 5xx (a retry may succeed). A request without a person (no session) is answered as if it had
 * no key: it is refused.
 */
export async function answerKeyedWrite(write: KeyedWrite): Promise<RestAnswer> {
  const { req, res, key, context, body } = write;
  if (!validKey(key)) return errorAnswer(appErrorBody(invalidKeyError('Idempotency-Key')));
  const userId = personOf(context);
  if (!userId || !body.ok) return (await write.run()).answer;
  let canonical = body.text;
  try {
    if (body.text.trim()) canonical = canonicalJson(JSON.parse(body.text));
  } catch {
    // Not JSON: compared as sent (the checks refuse it, and nothing is kept).
  }
  const fingerprint = fingerprintOf(req.method, req.originalUrl, canonical);
  const once = await runOnce(context.em, { userId, key: `http:${key}`, fingerprint, now: write.now }, () => write.run(), ({ answer, operation }) => {
    if (!operation || answer.status === 400 || answer.status >= 500) return undefined;
    const headers: Record<string, string> = { ...answer.headers };
    for (const name of KEPT_RESPONSE_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    return { status: answer.status, headers, body: answer.body } satisfies StoredAnswer;
  });
  if (once.kind === 'ran') return once.result.answer;
  if (once.kind === 'refused') return errorAnswer(appErrorBody(once.error));
  return { ...once.answer, headers: { ...once.answer.headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' } };
}
