import type { Request, Response } from 'express';
import type { AppContext } from '../core/context.js';
import type { MultipartUpload } from '../files/multipart.js';
import { answerAfterBody, sendData } from '../http/session-route.js';
import { successEnvelope } from '../http/envelope.js';
import { canonicalJson, fingerprintOf, invalidKeyError, runOnce, validKey } from './run-once.js';

const KEY_HEADER = 'idempotency-key';

/** Whether the request sent an `Idempotency-Key` (then the upload is hashed while it streams). */
export const sendsIdempotencyKey = (req: Request): boolean => req.headers[KEY_HEADER] !== undefined;

/**
 * A streamed upload's write (`POST /files/upload`, `/body-composition/photos`, `/account/import/:source`)
 * with `Idempotency-Key` (docs/idempotency.md): "the same request" is the same path, the same form fields
 * and the same file (its SHA-256, computed while it streamed to the staging file, its size, declared name
 * and type), so the claim is made once the body is received, before the write. A repeat answers the first
 * answer (`Idempotent-Replayed: true`); another upload with the key 422; a repeat while the first runs 409.
 * Only a success is kept: a refused upload wrote nothing and its key is given up. Without the header the
 * write runs as it always did. The staged file is removed either way.
 */
export async function answerUpload(
  scope: { ctx: AppContext; userId: string },
  req: Request,
  res: Response,
  upload: MultipartUpload,
  write: () => Promise<{ status: number; data: unknown }>,
): Promise<void> {
  try {
    const key = req.headers[KEY_HEADER];
    if (key === undefined) {
      const answer = await write();
      sendData(req, res, answer.status, answer.data);
      return;
    }
    if (!validKey(key)) throw invalidKeyError('Idempotency-Key');
    const file = upload.file && { sha256: upload.file.sha256 ?? null, size: upload.file.size, name: upload.file.declaredName, type: upload.file.declaredMimeType };
    const fingerprint = fingerprintOf(req.method, req.originalUrl, canonicalJson({ fields: upload.fields, file }));
    const once = await runOnce(scope.ctx.em, { userId: scope.userId, key: `http:${key}`, fingerprint, now: new Date() }, write, (answer) => ({
      status: answer.status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(successEnvelope(answer.data)),
    }));
    if (once.kind === 'refused') throw once.error;
    if (once.kind === 'ran') {
      sendData(req, res, once.result.status, once.result.data);
      return;
    }
    const kept = once.answer;
    answerAfterBody(req, res, () => res.status(kept.status).set({ ...kept.headers, 'idempotent-replayed': 'true' }).send(kept.body));
  } finally {
    await upload.discard();
  }
}
