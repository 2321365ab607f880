import { Router, type Request, type Response } from 'express';
import type { AppContext, AppDeps } from '../../core/context.js';
import { sendData, sendError } from '../../http/session-route.js';
import { createRequestContext } from '../../http/request-context.js';
import { bodyOf, jsonBody } from '../databases/json-body.js';
import { isPlainObject } from '../databases/properties.js';
import { alreadyAnswered, publicFormView, publicSubmitView, publishedForm, requirePassword, submitForm } from './form-submit.service.js';
import { isClosed } from './form-config.js';
import { FormValidationError } from './form-errors.js';
import { FormPasswordLockedError } from './form-password-attempts.js';
import { ipSalt, readRespondentKey, respondentCookie, respondentKeyFor, setRespondentCookie } from './respondent.js';
import type { HandWrittenRoutes } from '../../http/hand-written-routes.js';
import { PUBLIC_FORM_PATHS } from './public-forms.openapi.js';

/** The access password of a public request: header `X-Brain-Access-Password`, query or body `accessPassword`. */
export function accessPasswordOf(req: Request, body?: Record<string, unknown>): string | null {
  const header = req.headers['x-brain-access-password'];
  if (typeof header === 'string' && header) return header;
  const query = req.query.accessPassword;
  if (typeof query === 'string' && query) return query;
  const fromBody = body?.accessPassword;
  return typeof fromBody === 'string' && fromBody ? fromBody : null;
}

/** A route anyone may call; a session cookie, when present, names the respondent. */
function publicRoute(deps: AppDeps, handle: (ctx: AppContext, req: Request, res: Response) => Promise<void>) {
  return async (req: Request, res: Response): Promise<void> => {
    let log: AppContext['log'] = deps.logger;
    try {
      const ctx = await createRequestContext(deps, req, res);
      log = ctx.log;
      res.setHeader('Cache-Control', 'no-store');
      await handle(ctx, req, res);
    } catch (error) {
      if (error instanceof FormPasswordLockedError) res.setHeader('Retry-After', String(error.retryAfterSeconds));
      sendError(req, res, error, log);
    }
  };
}

/**
 * The public side of Brain forms (spec: Session API: Brain forms), hand-written edges beside the Sofa
 * surface: they need no login, read the `X-Brain-Access-Password` header and set the httpOnly
 * respondent cookie — none of which a GraphQL operation behind Sofa can do. The owner's routes
 * (`/brain/forms…`) are GraphQL operations (brain-forms.resolver.ts) that Sofa serves.
 *
 * GET  /brain/public/forms/:publicSlug          the questions (no answers, no database layout)
 * POST /brain/public/forms/:publicSlug/submit   { values, respondentName?, respondentKey?, accessPassword? } → 201
 */
export function brainPublicFormRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get(
    '/brain/public/forms/:publicSlug',
    publicRoute(deps, async (ctx, req, res) => {
      const form = await publishedForm(ctx.em, req.params.publicSlug as string);
      const respondent = { userId: ctx.auth?.user.id ?? null, key: respondentCookie(req) };
      // A closed form answers 200 with `closed: true` (operations.md), before any password.
      if (!isClosed(form.config) && respondent.userId !== form.userId) await requirePassword(form, accessPasswordOf(req), deps.formPasswordAttempts);
      sendData(req, res, 200, publicFormView(form, await alreadyAnswered(ctx.em, form, respondent)));
    }),
  );
  router.post(
    '/brain/public/forms/:publicSlug/submit',
    jsonBody,
    publicRoute(deps, async (ctx, req, res) => {
      const body = bodyOf(req);
      if (!isPlainObject(body)) throw new FormValidationError([{ path: [], message: 'body must be a JSON object' }]);
      const unknown = Object.keys(body).filter((k) => !['values', 'accessPassword', 'respondentKey', 'respondentName'].includes(k));
      if (unknown.length) throw new FormValidationError(unknown.map((k) => ({ path: [k], message: `unknown field ${k}` })));
      const form = await publishedForm(ctx.em, req.params.publicSlug as string);
      const given = readRespondentKey(body.respondentKey);
      const { key, cookieKey, setCookie } = respondentKeyFor(req, form, given);
      const result = await submitForm(
        ctx.em,
        form,
        { values: body.values ?? {}, respondentName: body.respondentName, accessPassword: accessPasswordOf(req, body), passwordAttempts: deps.formPasswordAttempts },
        { userId: ctx.auth?.user.id ?? null, key, cookieKey, ip: req.ip ?? null, ipSalt: ipSalt(deps) },
      );
      if (setCookie && key) setRespondentCookie(deps, res, key);
      sendData(req, res, 201, publicSubmitView(form, result));
    }),
  );
  return router;
}

/** These routes with their description (src/app/hand-written-routes.ts mounts them). */
export const publicFormRouteGroup: HandWrittenRoutes = { router: brainPublicFormRoutes, openapi: PUBLIC_FORM_PATHS };
