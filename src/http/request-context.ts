import type { Request, Response } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext, AppDeps, Authenticated, HttpBridge, Loaders } from '../core/context.js';
import type { Logger } from '../core/logger.js';
import { SESSION_COOKIE } from '../core/session-cookie.js';
import { STATUS_OVERRIDE } from './status-override.js';

function httpBridge(deps: AppDeps, req: Request, res: Response): HttpBridge {
  const secure = deps.config.baseUrl.startsWith('https:');
  return {
    setCookie(name, value, options = {}) {
      res.cookie(name, value, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: options.maxAgeMs });
    },
    clearCookie(name) {
      res.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
    },
    withdrawCookies() {
      res.removeHeader('Set-Cookie');
    },
    setStatus(status) {
      res.locals[STATUS_OVERRIDE] = status;
    },
    setHeader(name, value) {
      res.setHeader(name, value);
    },
    ip: req.ip,
    userAgent: req.get('user-agent'),
  };
}

/** An answer that sets no cookies (the Public API's, a live socket's); `res` takes a status override. */
export function cookielessBridge(req?: Request, res?: Response): HttpBridge {
  return {
    setCookie() {},
    clearCookie() {},
    withdrawCookies() {},
    setStatus(status) {
      if (res) res.locals[STATUS_OVERRIDE] = status;
    },
    // The Public API's answer headers (its writes' Undo-Token, docs/undo.md); none without a response.
    ...(res ? { setHeader: (name: string, value: string) => void res.setHeader(name, value) } : {}),
    ip: req?.ip,
  };
}

/** What a caller's context is made of besides the app: who asks, how to answer, where to log. */
export interface ContextSource {
  auth: Authenticated | null;
  http: HttpBridge;
  /** Read when something logs: the request-bound logger may be made on first use (request-logging.ts). */
  log(): Logger;
  /** A live subscription's context: `renew()` takes a fresh entity manager and loaders before each event. */
  live?: boolean;
  /** The entity manager `auth` was read on (its user stays managed by the context's); a fresh fork if absent. */
  em?: EntityManager;
}

/**
 * The one place an AppContext is made, for every edge (GraphQL and REST over HTTP, the Public API, live
 * sockets): a fresh entity manager, and the loaders made on first use.
 */
export function buildContext(deps: AppDeps, source: ContextSource): AppContext {
  let loaders: Loaders | undefined;
  const context: AppContext = {
    deps,
    em: source.em ?? deps.orm.em.fork(),
    auth: source.auth,
    http: source.http,
    get loaders() {
      return (loaders ??= deps.createLoaders(context.em));
    },
    get log() {
      return source.log();
    },
  };
  if (source.live) {
    context.renew = () => {
      context.em = deps.orm.em.fork();
      loaders = undefined;
    };
  }
  return context;
}

/** The context of a cookie-authenticated request (GraphQL, /api/v1, the hand-written routes). */
export async function createRequestContext(deps: AppDeps, req: Request, res: Response): Promise<AppContext> {
  const token = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
  const em = deps.orm.em.fork();
  return buildContext(deps, {
    em,
    auth: await deps.authenticateSession(em, token),
    http: httpBridge(deps, req, res),
    log: () => requestLog(deps, req),
  });
}

/** The request-bound logger when request logging made one, else the app's. */
export function requestLog(deps: AppDeps, req: Request): Logger {
  return (req as Request & { log?: Logger }).log ?? deps.logger;
}
