import type { Request } from 'express';
import busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { RuleViolationError, ValidationError } from '../core/errors.js';

/** An upload streamed to a local staging file; nothing is kept in memory. */
export interface StagedFile {
  path: string;
  size: number;
  /** As sent by the client: metadata only, never trusted for type or path. */
  declaredName: string;
  declaredMimeType: string;
  /** SHA-256 of the bytes (hex), computed while they streamed; only when `digest` was asked for. */
  sha256?: string;
}

export interface MultipartUpload {
  file: StagedFile | null;
  fields: Record<string, string>;
  /** Removes the staging file (safe to call more than once). */
  discard(): Promise<void>;
}

export interface MultipartOptions {
  maxFileSize: number;
  stagingDir: string;
  fileField?: string;
  fieldNames: readonly string[];
  /** Hash the file while it streams (an `Idempotency-Key` compares it: src/idempotency/keyed-upload.ts). */
  digest?: boolean;
}

const MAX_FIELD_BYTES = 10_000;
/** How much of an oversize request is still read (and dropped) before the connection is cut. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/** Thrown when the request is refused mid-stream; the route answers once the rest is drained. */
export class UploadRefused extends Error {
  constructor(readonly error: ValidationError) {
    super(error.message);
  }
}

export function oversizeError(maxFileSize: number): RuleViolationError {
  const error = new RuleViolationError('file_size', `The file is larger than the maximum of ${maxFileSize} bytes`, ['file']);
  (error.details as Record<string, unknown>).maxBytes = maxFileSize;
  return error;
}

/**
 * Streams a multipart/form-data request with busboy: the one file part goes straight to a staging
 * file, counted as it flows. Past `maxFileSize` the part is cut (busboy stops handing over bytes, the
 * rest of the request is read and dropped) and the staging file is removed.
 */
export async function receiveMultipart(req: Request, options: MultipartOptions): Promise<MultipartUpload> {
  const fileField = options.fileField ?? 'file';
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new UploadRefused(new ValidationError('Expected a multipart/form-data body', [{ path: [], message: 'Content-Type must be multipart/form-data' }]));
  }
  await mkdir(options.stagingDir, { recursive: true });
  const stagingPath = join(options.stagingDir, `${randomUUID()}.upload`);
  const discard = () => rm(stagingPath, { force: true });

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // busboy reports the limit on reaching it: one byte more lets a file of exactly maxFileSize through.
      limits: { fileSize: options.maxFileSize + 1, files: 1, fields: options.fieldNames.length + 5, fieldSize: MAX_FIELD_BYTES, parts: options.fieldNames.length + 6 },
    });
  } catch (error) {
    throw new UploadRefused(new ValidationError('Malformed multipart body', [{ path: [], message: (error as Error).message }]));
  }

  const fields: Record<string, string> = Object.create(null);
  let file: StagedFile | null = null;
  let refusal: ValidationError | null = null;
  let writing: Promise<void> | null = null;
  const refuse = (error: ValidationError) => {
    refusal ??= error;
  };

  const done = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) refuse(new ValidationError(`${name} is too long`, [{ path: [name], message: `${name} must be at most ${MAX_FIELD_BYTES} bytes` }]));
      else if (options.fieldNames.includes(name)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== fileField || file || writing) {
        stream.resume();
        if (name !== fileField) refuse(new ValidationError(`Unexpected file field ${name}`, [{ path: [name], message: `only the ${fileField} field may carry a file` }]));
        return;
      }
      let size = 0;
      const hash = options.digest ? createHash('sha256') : null;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          hash?.update(chunk);
          cb(null, chunk);
        },
      });
      stream.on('limit', () => refuse(oversizeError(options.maxFileSize)));
      writing = pipeline(stream, counter, createWriteStream(stagingPath)).then(() => {
        file = { path: stagingPath, size, declaredName: info.filename ?? '', declaredMimeType: info.mimeType, ...(hash ? { sha256: hash.digest('hex') } : {}) };
      });
      writing.catch(() => undefined);
    });
    parser.on('filesLimit', () => refuse(new ValidationError('Only one file per upload', [{ path: [fileField], message: 'send exactly one file' }])));
    parser.on('fieldsLimit', () => refuse(new ValidationError('Too many form fields', [{ path: [], message: 'too many form fields' }])));
    parser.on('partsLimit', () => refuse(new ValidationError('Too many form parts', [{ path: [], message: 'too many form parts' }])));
    parser.on('error', (error: Error) =>
      reject(error instanceof UploadRefused ? error : new UploadRefused(new ValidationError('Malformed multipart body', [{ path: [], message: error.message }]))),
    );
    parser.on('close', () => resolve());
  });
  req.on('aborted', () => parser.destroy(new Error('client aborted the upload')));
  // Past the limit the rest is read and dropped so the client gets its answer, but only up to a point:
  // a client still sending far beyond it is cut off.
  let received = 0;
  const cutOffAt = options.maxFileSize + DRAIN_BYTES;
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > cutOffAt && !req.destroyed) {
      refuse(oversizeError(options.maxFileSize));
      req.unpipe(parser);
      parser.destroy(new UploadRefused(refusal!));
    }
  });
  req.pipe(parser);

  try {
    await done;
    if (writing) await writing;
  } catch (error) {
    await discard();
    throw error instanceof UploadRefused ? error : new UploadRefused(new ValidationError('The upload failed', [{ path: ['file'], message: (error as Error).message }]));
  }
  if (refusal) {
    await discard();
    throw new UploadRefused(refusal);
  }
  return { file, fields, discard };
}
