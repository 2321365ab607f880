import type { Request, Response } from 'express';
import type { AppContext, AppDeps, HttpBridge } from '../core/context.js';
import { authenticateSession } from '../accounts/session-auth.js';
import { SESSION_COOKIE } from '../accounts/session-token.js';
import { createLoaders } from '../loaders.js';

/** res.locals key where a resolver's status override travels from HttpBridge to the REST envelope. */
export const STATUS_OVERRIDE = 'statusOverride';

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
    ip: req.ip,
  };
}

/** Builds the per-request context shared by the GraphQL and REST edges. */
export async function createRequestContext(deps: AppDeps, req: Request, res: Response): Promise<AppContext> {
  const em = deps.orm.em.fork();
  const token = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
  let loaders: ReturnType<typeof createLoaders> | undefined;
  return {
    deps,
    em,
    auth: await authenticateSession(em, deps.sessionTokens, token),
    http: httpBridge(deps, req, res),
    get loaders() {
      return (loaders ??= createLoaders(em));
    },
    // Read when something logs: the request-bound logger may be made on first use (request-logging.ts).
    get log() {
      return (req as Request & { log?: AppContext['log'] }).log ?? deps.logger;
    },
  };
}
