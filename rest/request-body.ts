import type { Request as ExpressRequest } from 'express';
import { appErrorBody, PayloadTooLargeError, type ErrorBody } from '../src/core/errors.js';
import { validationErrorBody } from '../src/graphql/error-body.js';

/** A body read: its text, or the refusal (413 past `limit`). */
export type BodyRead = { ok: true; text: string } | { ok: false; error: ErrorBody; limit?: number };

/** Past the limit the rest is read off and dropped (up to this much), so the client gets the 413. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/** Collects chunks up to `limit` bytes; past it the rest is drained (up to DRAIN_BYTES) and refused 413. */
class BoundedText {
  private readonly chunks: Uint8Array[] = [];
  size = 0;

  constructor(private readonly limit: number) {}

  /** False once enough was drained past the limit: the reader stops there. */
  add(chunk: Uint8Array): boolean {
    this.size += chunk.byteLength;
    if (this.size <= this.limit) this.chunks.push(chunk);
    return this.size <= this.limit + DRAIN_BYTES;
  }

  result(): BodyRead {
    if (this.size > this.limit) return { ok: false, error: appErrorBody(new PayloadTooLargeError(this.limit)), limit: this.limit };
    return { ok: true, text: Buffer.concat(this.chunks).toString('utf8') };
  }
}

/** Reads a WHATWG request's body, keeping at most `limit` bytes; a larger one is refused 413. */
export async function readRequestBody(request: Request, limit: number): Promise<BodyRead> {
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const text = new BoundedText(limit);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!text.add(value)) {
      void reader.cancel().catch(() => undefined);
      break;
    }
  }
  return text.result();
}

/**
 * The same read from Express's request stream (the direct path). A GET or HEAD has no body, as the
 * fetch adapter never gave one to Sofa's path.
 */
export function readExpressBody(req: ExpressRequest, limit: number): Promise<BodyRead> {
  if (req.method === 'GET' || req.method === 'HEAD') return Promise.resolve({ ok: true, text: '' });
  const text = new BoundedText(limit);
  return new Promise((resolve, reject) => {
    const done = (): void => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      if (text.add(chunk)) return;
      // Enough drained: the rest stays unread (not destroyed, so the 413 still reaches the client).
      done();
      req.pause();
      resolve(text.result());
    };
    const onEnd = (): void => {
      done();
      resolve(text.result());
    };
    const onError = (error: unknown): void => {
      done();
      reject(error);
    };
    const onClose = (): void => onError(new Error('request closed before its body was read'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

export function parseBody(text: string): { ok: true; body: Record<string, unknown> } | { ok: false; error: ErrorBody } {
  if (!text.trim()) return { ok: true, body: {} };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message.slice(0, 200);
    return { ok: false, error: validationErrorBody([{ path: [], message: `Request body is not valid JSON: ${reason}` }]) };
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, error: validationErrorBody([{ path: [], message: 'Request body must be a JSON object' }]) };
  }
  return { ok: true, body: body as Record<string, unknown> };
}
