import type { Request, Response } from 'express';
import type { AppContext, AppDeps, HttpBridge } from '../core/context.js';
import { SESSION_COOKIE } from '../core/session-cookie.js';
import type { Loaders } from '../core/context.js';
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

/** Builds the per-request context shared by the GraphQL and REST edges. */
export async function createRequestContext(deps: AppDeps, req: Request, res: Response): Promise<AppContext> {
  const em = deps.orm.em.fork();
  const token = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
  let loaders: Loaders | undefined;
  return {
    deps,
    em,
    auth: await deps.authenticateSession(em, token),
    http: httpBridge(deps, req, res),
    get loaders() {
      return (loaders ??= deps.createLoaders(em));
    },
    // Read when something logs: the request-bound logger may be made on first use (request-logging.ts).
    get log() {
      return (req as Request & { log?: AppContext['log'] }).log ?? deps.logger;
    },
  };
}
