import type { Request, Response } from 'express';
import { isUuid } from '../core/scalars.js';
import type { AppContext, AppDeps } from '../core/context.js';
import { rowCapViolation } from '../core/database/row-caps.js';
import { AppError, appErrorBody, internalErrorBody, MethodNotAllowedError, UnauthorizedError, ValidationError, type ErrorBody } from '../core/errors.js';
import { errorEnvelope, successEnvelope } from './envelope.js';
import { createRequestContext } from './request-context.js';

/**
 * Session-authenticated REST routes that are not Sofa routes (multipart uploads, byte streams, a CSV
 * export): the session check, the documented envelopes and UUID path values, shared by every such route.
 */

/** How much of an unread body is still read and dropped before answering, so the client sees the answer. */
const DRAIN_LIMIT = 32 * 1024 * 1024;

/** Answers only once the request body is read off (a client still sending would miss an early answer). */
export function answerAfterBody(req: Request, res: Response, send: () => void): void {
  if (req.complete || req.destroyed) {
    send();
    return;
  }
  let drained = 0;
  let sent = false;
  const finish = () => {
    if (sent) return;
    sent = true;
    send();
  };
  req.unpipe();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT && !sent) {
      res.setHeader('Connection', 'close');
      finish();
      req.destroy();
    }
  });
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}

/** 405 in the error envelope with `Allow`, for a hand-written route's other methods (after the body is read off). */
export function methodNotAllowed(allow: string) {
  return (req: Request, res: Response): void => {
    res.setHeader('Allow', allow);
    answerAfterBody(req, res, () => res.status(405).json(errorEnvelope(new MethodNotAllowedError(req.method, req.path, allow))));
  };
}

/** The error envelope for a typed error; anything else is logged and answers 500. */
export function sendError(req: Request, res: Response, error: unknown, log: AppContext['log']): void {
  let body: ErrorBody;
  const cap = rowCapViolation(error);
  if (error instanceof AppError) body = appErrorBody(error);
  else if (cap) body = appErrorBody(cap);
  else {
    log.error({ err: error }, 'unhandled error');
    body = internalErrorBody();
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  answerAfterBody(req, res, () => res.status(body.status).json(errorEnvelope(body)));
}

export function sendData(req: Request, res: Response, status: number, payload: unknown): void {
  answerAfterBody(req, res, () => res.status(status).json(successEnvelope(payload)));
}

export interface SessionScope {
  ctx: AppContext;
  userId: string;
}

/** A route that needs the session cookie: 401 without it, the error envelope for whatever it throws. */
export function sessionRoute(
  deps: AppDeps,
  handle: (scope: SessionScope, req: Request, res: Response) => Promise<void>,
  unwrap: (error: unknown) => unknown = (error) => error,
) {
  return async (req: Request, res: Response): Promise<void> => {
    let log: AppContext['log'] = deps.logger;
    try {
      const ctx = await createRequestContext(deps, req, res);
      log = ctx.log;
      if (!ctx.auth) throw new UnauthorizedError();
      await handle({ ctx, userId: ctx.auth.user.id }, req, res);
    } catch (error) {
      sendError(req, res, unwrap(error), log);
    }
  };
}


/** operations.md: every id in a path is a UUID; another shape is a validation error (400). */
export function requireUuid(value: string | undefined, name: string): string {
  if (!value || !isUuid(value)) {
    throw new ValidationError(`${name} must be a UUID`, [{ path: [name], message: `${name} must be a UUID` }]);
  }
  return value.toLowerCase();
}
