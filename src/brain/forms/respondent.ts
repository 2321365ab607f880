import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../core/context.js';
import type { FieldError } from '../../core/errors.js';
import { FormValidationError } from './form-errors.js';
import type { BrainForm } from './brain-form.entity.js';

/** The httpOnly cookie that marks an anonymous respondent of one-response forms (set by a public submit). */
export const RESPONDENT_COOKIE = 'lp_brain_respondent';
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

export function respondentCookie(req: Request): string | null {
  const value = (req.cookies as Record<string, string> | undefined)?.[RESPONDENT_COOKIE];
  return typeof value === 'string' && /^[A-Za-z0-9_-]{8,100}$/.test(value) ? value : null;
}

/** A client's own `respondentKey` (text, at most 200 characters); 400 VALIDATION otherwise. */
export function readRespondentKey(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 200) {
    const errors: FieldError[] = [{ path: ['respondentKey'], message: 'respondentKey must be text of at most 200 characters' }];
    throw new FormValidationError(errors);
  }
  return value;
}

/**
 * The keys a public submit counts the respondent by: the client's `respondentKey`, else the cookie, else
 * (one-response forms) a new one the answer sets as the cookie. A client that sends its own key while
 * it also has the cookie is counted by both (`cookieKey`): a fresh key does not make a second response.
 */
export function respondentKeyFor(req: Request, form: BrainForm, given: string | null): { key: string | null; cookieKey: string | null; setCookie: boolean } {
  const cookie = respondentCookie(req);
  const oneResponse = form.config.oneResponsePerPerson === true;
  if (given) return { key: given, cookieKey: cookie && cookie !== given ? cookie : null, setCookie: false };
  if (cookie) return { key: cookie, cookieKey: null, setCookie: false };
  if (oneResponse) return { key: randomUUID(), cookieKey: null, setCookie: true };
  return { key: null, cookieKey: null, setCookie: false };
}

export function setRespondentCookie(deps: AppDeps, res: Response, key: string): void {
  res.cookie(RESPONDENT_COOKIE, key, { httpOnly: true, sameSite: 'lax', secure: deps.config.baseUrl.startsWith('https:'), path: '/', maxAge: ONE_YEAR_MS });
}

/** The secret the IP hash is salted with (derived from the session secret, never stored). */
export function ipSalt(deps: AppDeps): string {
  return deps.sessionTokens.derivedSecret('brain-respondent-ip');
}
