import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { doubleCsrf } from 'csrf-csrf';
import type { Config } from '../core/config.js';
import { ForbiddenError } from '../core/errors.js';
import { SESSION_COOKIE } from '../core/session-cookie.js';

/** The hidden form field that carries the token (or the `X-CSRF-Token` header for a script). */
export const CSRF_FIELD = '_csrf';

export interface FormCsrf {
  /** Sets the token cookie and returns the token to put in the form's hidden `_csrf` field. */
  token(req: Request, res: Response): string;
  /**
   * For the POST route of an HTML form: parses the urlencoded body, then lets the request on only when
   * its `_csrf` field (or X-CSRF-Token header) matches the signed token cookie; otherwise 403 FORBIDDEN.
   */
  protect: RequestHandler[];
}

export interface FormCsrfOptions {
  secret: string;
  /** HTTPS: the cookie is `__Host-` prefixed and Secure (no sibling subdomain can set or read it). */
  secure: boolean;
  maxBodyBytes?: number;
}

/**
 * Signed double-submit tokens (csrf-csrf) for the service's own HTML forms (the Brain public page, the
 * OAuth consent page). The token is an HMAC of a random value and the visitor's session cookie (empty
 * for an anonymous visitor), set in an httpOnly SameSite=Strict cookie and repeated in the form: a page
 * of another origin can make the browser send the cookie but can neither read it nor forge the field.
 */
export function createFormCsrf(options: FormCsrfOptions): FormCsrf {
  const { generateCsrfToken, validateRequest } = doubleCsrf({
    getSecret: () => options.secret,
    getSessionIdentifier: (req) => (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE] ?? '',
    cookieName: options.secure ? '__Host-lp_csrf' : 'lp_csrf',
    cookieOptions: { sameSite: 'strict', secure: options.secure, httpOnly: true, path: '/' },
    getCsrfTokenFromRequest: (req) => {
      const field = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
      return typeof field === 'string' ? field : req.headers['x-csrf-token'];
    },
  });
  const check = (req: Request, _res: Response, next: NextFunction) => {
    if (req.cookies === undefined) return next(new Error('form CSRF needs cookie-parser in front of it'));
    next(validateRequest(req) ? undefined : new ForbiddenError('The form is missing its security token or it expired: reload the page and send it again'));
  };
  return {
    token: (req, res) => generateCsrfToken(req, res),
    protect: [express.urlencoded({ extended: false, limit: options.maxBodyBytes ?? 100_000 }), check],
  };
}

/** The service's form-token helper: keyed from the session secret, Secure when BASE_URL is https. */
export function serviceFormCsrf(config: Config, secret: string): FormCsrf {
  return createFormCsrf({ secret, secure: config.baseUrl.startsWith('https:') });
}

declare module '../core/context.js' {
  interface AppDeps {
    /** The form-token helper of the service's own HTML forms (serviceFormCsrf). */
    formCsrf: FormCsrf;
  }
}
