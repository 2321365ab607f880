import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { UnsupportedMediaTypeError } from '../../core/errors.js';
import { isJsonContentType } from '../../http/json-content-type.js';

const MAX_BODY_BYTES = 2 * 1024 * 1024;
const parseJson = express.json({ limit: MAX_BODY_BYTES });

/**
 * The JSON body of one Brain route (parsed per route, never router-wide: the Sofa surface behind
 * reads its own bodies). A body in another content type is refused with 415, as on the Sofa routes.
 */
export const jsonBody: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !isJsonContentType(req.headers['content-type'])) return next(new UnsupportedMediaTypeError(req.headers['content-type']));
  parseJson(req, res, next);
};

/** The parsed body, `{}` when none was sent. */
export function bodyOf(req: Request): unknown {
  return req.body === undefined ? {} : req.body;
}
