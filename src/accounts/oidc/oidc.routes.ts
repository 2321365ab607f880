import express, { Router, type Request, type Response } from 'express';
import type { AppContext, AppDeps } from '../../core/context.js';
import { AppError, appErrorBody, internalErrorBody, NotFoundError, UnsupportedMediaTypeError, ValidationError, type ErrorBody } from '../../core/errors.js';
import { errorEnvelope } from '../../http/envelope.js';
import type { HandWrittenRoutes } from '../../http/hand-written-routes.js';
import { isJsonContentType } from '../../http/json-content-type.js';
import { createRequestContext } from '../../http/request-context.js';
import { sendData, sendError } from '../../http/session-route.js';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../session-token.js';
import { sessionMetaOf, startSession, type StartedSession } from '../sign-in/start-session.js';
import { matchAccount } from './oidc-accounts.js';
import { OidcLinkRequiredError } from './oidc-errors.js';
import { beginSignIn, finishSignIn, FLOW_COOKIE, FLOW_TTL_SECONDS, OIDC_PATH } from './oidc-flow.js';
import { completeLink, issueLink, LINK_COOKIE, LINK_TTL_SECONDS, readLink } from './oidc-link.js';
import { OIDC_PATHS } from './oidc.openapi.js';
import { errorPage, linkPage, PAGE_CSP } from './oidc-pages.js';
import { redirectTarget } from './return-to.js';

const json = express.json({ limit: '16kb' });

/** Path below /api/v1 of each route (the handWrittenRoutes router is mounted there). */
const START = '/auth/oidc/start';
const CALLBACK = '/auth/oidc/callback';
const LINK = '/auth/oidc/link';

function cookieOptions(deps: AppDeps, maxAgeSeconds?: number) {
  // Sent only to these routes; Lax so the provider's top-level redirect back carries it.
  return { httpOnly: true, sameSite: 'lax' as const, secure: deps.config.baseUrl.startsWith('https:'), path: OIDC_PATH, ...(maxAgeSeconds ? { maxAge: maxAgeSeconds * 1000 } : {}) };
}

function settingsOf(deps: AppDeps) {
  if (!deps.config.oidc) throw new NotFoundError('Single sign-on (OIDC_ISSUER is not configured)');
  return deps.config.oidc;
}

/** A browser's navigation gets a page, an API client the envelope (content negotiation on Accept, as `/`). */
function wantsHtml(req: Request): boolean {
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}

function bodyOf(error: unknown, log: AppContext['log']): ErrorBody {
  if (error instanceof AppError) return appErrorBody(error);
  log.error({ err: error }, 'single sign-on failed');
  return internalErrorBody();
}

/** The refusal, never a session: a page for a browser, the envelope otherwise. */
function refuse(req: Request, res: Response, error: unknown, log: AppContext['log']): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Vary', 'Accept');
  const body = bodyOf(error, log);
  if (!wantsHtml(req)) {
    res.status(body.status).json(errorEnvelope(body));
    return;
  }
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  res.status(body.status).type('html').send(errorPage(body.message, body.status));
}

/** 409: the link page for a browser, OIDC_LINK_REQUIRED with the link token for an API client. */
function answerLinkRequired(req: Request, res: Response, email: string, linkToken: string, expiresAt: Date): void {
  const pending = new OidcLinkRequiredError({ linkToken, email, expiresAt: expiresAt.toISOString() });
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Vary', 'Accept');
  if (wantsHtml(req)) {
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.status(pending.status).type('html').send(linkPage({ email, linkToken }));
    return;
  }
  res.status(pending.status).json(errorEnvelope(appErrorBody(pending)));
}

function setSession(ctx: AppContext, session: StartedSession): void {
  ctx.http.setCookie(SESSION_COOKIE, session.token, { maxAgeMs: SESSION_TTL_MS });
}

export function oidcRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get(START, async (req, res) => {
    try {
      const { url, flowCookie } = await beginSignIn(deps, settingsOf(deps), req.query.returnTo);
      res.cookie(FLOW_COOKIE, flowCookie, cookieOptions(deps, FLOW_TTL_SECONDS));
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, url);
    } catch (error) {
      refuse(req, res, error, req.log ?? deps.logger);
    }
  });

  router.get(CALLBACK, async (req, res) => {
    let log: AppContext['log'] = req.log ?? deps.logger;
    // The flow is single-use: whatever happens, this browser's flow cookie ends here.
    res.clearCookie(FLOW_COOKIE, cookieOptions(deps));
    try {
      const settings = settingsOf(deps);
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
      const identity = await finishSignIn(deps, settings, query, (req.cookies as Record<string, string>)[FLOW_COOKIE]);
      const ctx = await createRequestContext(deps, req, res);
      log = ctx.log;
      const match = await matchAccount(ctx.em, deps, identity, settings.autoCreate);
      if (match.kind === 'link-required') {
        const { linkToken, bind, expiresAt } = await issueLink(deps, match.user.id, identity);
        res.cookie(LINK_COOKIE, bind, cookieOptions(deps, LINK_TTL_SECONDS));
        answerLinkRequired(req, res, match.user.email, linkToken, expiresAt);
        return;
      }
      // The provider is responsible for its own second factor: a linked identity signs in here without
      // this service's TOTP (docs/sign-in.md, "OpenID Connect sign-in").
      setSession(ctx, await startSession(ctx.em, deps, match.user, sessionMetaOf(ctx)));
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, redirectTarget(deps.config.baseUrl, identity.returnTo));
    } catch (error) {
      // Nothing but the flow's end may be set on a refusal (never a session).
      res.removeHeader('Set-Cookie');
      res.clearCookie(FLOW_COOKIE, cookieOptions(deps));
      refuse(req, res, error, log);
    }
  });

  router.post(
    LINK,
    (req, _res, next) => next(isJsonContentType(req.headers['content-type']) ? undefined : new UnsupportedMediaTypeError(req.headers['content-type'])),
    json,
    async (req, res) => {
      let log: AppContext['log'] = req.log ?? deps.logger;
      try {
        settingsOf(deps);
        const body = (req.body ?? {}) as Record<string, unknown>;
        const missing = (['linkToken', 'password'] as const).filter((f) => typeof body[f] !== 'string' || !body[f]);
        if (missing.length) throw new ValidationError(`${missing.join(' and ')} required`, missing.map((f) => ({ path: [f], message: `${f} must be a non-empty string` })));
        const pending = await readLink(deps, body.linkToken as string, (req.cookies as Record<string, string>)[LINK_COOKIE]);
        const ctx = await createRequestContext(deps, req, res);
        log = ctx.log;
        const { user, started } = await completeLink(ctx, pending, body.password as string);
        if (started) setSession(ctx, started);
        res.clearCookie(LINK_COOKIE, cookieOptions(deps));
        res.setHeader('Cache-Control', 'no-store');
        sendData(req, res, 200, { user: { id: user.id, email: user.email, emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null }, redirectTo: redirectTarget(deps.config.baseUrl, pending.returnTo) });
      } catch (error) {
        sendError(req, res, error, log);
      }
    },
  );

  return router;
}

/** These routes with their description (src/app/hand-written-routes.ts mounts them), all counted by the auth rate limit. */
export const oidcRouteGroup: HandWrittenRoutes = { router: oidcRoutes, openapi: OIDC_PATHS, authLimited: [START, CALLBACK, LINK] };
