import type { Response as ExpressResponse } from 'express';
import type { ErrorBody } from '../src/core/errors.js';
import { errorEnvelope } from '../src/http/envelope.js';

/**
 * A REST answer as plain values, for the direct path to write straight to Express's response (no WHATWG
 * Response) and for the comparison of both paths (rest/path-comparison.ts).
 */
export interface RestAnswer {
  status: number;
  /** The headers the answer itself sets (content type, Allow); those set on `res` before stay. */
  headers: Record<string, string>;
  body: string;
}

/** A success's content type: what Sofa's `Response.json` (@whatwg-node/fetch) has always sent. */
export const SUCCESS_CONTENT_TYPE = 'application/json; charset=utf-8';
/** A refusal's content type: what `Response.json` (src/http/envelope.ts `errorResponse`) has always sent. */
export const ERROR_CONTENT_TYPE = 'application/json';

/** The documented error envelope with its status (and extra headers, e.g. Allow on a 405). */
export function errorAnswer(error: ErrorBody, headers: Record<string, string> = {}): RestAnswer {
  const all: Record<string, string> = { 'content-type': ERROR_CONTENT_TYPE };
  for (const [name, value] of Object.entries(headers)) all[name.toLowerCase()] = value;
  return { status: error.status, headers: all, body: JSON.stringify(errorEnvelope(error)) };
}

/** Writes the answer in one piece, with its length. */
export function writeAnswer(res: ExpressResponse, answer: RestAnswer): void {
  if (res.headersSent) return;
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader('content-length', Buffer.byteLength(answer.body));
  res.end(answer.body);
}
