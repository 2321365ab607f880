import { randomBytes } from 'node:crypto';
import { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import escapeHtml from 'escape-html';
import type { AppContext, AppDeps } from '../../core/context.js';
import { AppError, type FieldError } from '../../core/errors.js';
import { CSRF_FIELD } from '../../http/form-csrf.js';
import { createRequestContext } from '../../http/request-context.js';
import type { BrainForm } from './brain-form.entity.js';
import { isClosed, RATING_MAX, type FormField } from './form-config.js';
import { FormPasswordLockedError } from './form-password-attempts.js';
import { alreadyAnswered, passwordOpens, publishedForm, submitForm, type QuizResult } from './form-submit.service.js';
import { ipSalt, respondentCookie, respondentKeyFor, setRespondentCookie } from './respondent.js';

/**
 * The public form page `/brain/f/<publicSlug>` (operations.md): server-rendered HTML that works
 * without JavaScript. GET shows the questions (or the password step, or a closed / already-answered
 * page); the form posts back to the same address (CSRF token in `_csrf`), and the answer is the
 * thank-you page or the questions again with each error next to its field. It goes through the same
 * submit service as the REST doors.
 */

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:40rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.6rem;margin-top:0}.desc{color:#444;white-space:pre-wrap}
.field{margin:1.25rem 0;border:0;padding:0}label,legend{font-weight:600;display:block;margin-bottom:.3rem}
.choice{font-weight:400;display:flex;gap:.5rem;align-items:center;margin:.2rem 0}
input[type=text],input[type=email],input[type=number],input[type=date],input[type=password],textarea{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #888;border-radius:4px;font:inherit}
textarea{min-height:6rem}.req{color:#b00020}.hint{color:#555;font-size:.9rem}
.error{color:#b00020;font-weight:600;margin:.3rem 0 0}[aria-invalid=true]{border-color:#b00020;outline:2px solid #b0002033}
button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:4px;background:#2457c5;color:#fff;cursor:pointer}
button:focus,input:focus,textarea:focus{outline:3px solid #ffbf47}.summary{border:2px solid #b00020;padding:.5rem 1rem;border-radius:4px}
.score{font-size:1.3rem;font-weight:700}`;

interface PageState {
  values?: Record<string, unknown>;
  errors?: FieldError[];
  respondentName?: string;
  /** the password the visitor already gave, carried in a hidden field (no server-side session) */
  password?: string | null;
}

function page(res: Response, status: number, title: string, body: string): void {
  const nonce = randomBytes(16).toString('base64');
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      // Strict: no script at all, the one inline style by nonce, posts only to this service, no framing.
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Frame-Options': 'DENY',
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>` +
        `<body><main>${body}</main></body></html>`,
    );
}

function messagePage(res: Response, status: number, title: string, message: string): void {
  page(res, status, title, `<h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(message)}</p>`);
}

function fieldErrors(errors: FieldError[] | undefined, key: string): string[] {
  return (errors ?? []).filter((e) => e.path[0] === 'values' && e.path[1] === key).map((e) => e.message);
}

function errorBlock(id: string, messages: string[]): string {
  return messages.length ? `<p class="error" id="${id}">${messages.map((m) => escapeHtml(m)).join('<br>')}</p>` : '';
}

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined || value === null ? [] : [String(value)];
}

function renderField(field: FormField, state: PageState): string {
  const id = `f_${field.key}`;
  const name = id;
  const messages = fieldErrors(state.errors, field.key);
  const errId = `${id}_error`;
  const invalid = messages.length ? ` aria-invalid="true" aria-describedby="${errId}"` : '';
  const required = field.required ? ` aria-required="true"` : '';
  const mark = field.required ? ` <span class="req" aria-hidden="true">*</span><span class="hint"> (required)</span>` : '';
  const value = state.values?.[field.key];
  const text = value === undefined || value === null || Array.isArray(value) ? '' : String(value);
  const label = escapeHtml(field.label);
  switch (field.type) {
    case 'long_text':
      return `<div class="field"><label for="${id}">${label}${mark}</label><textarea id="${id}" name="${name}"${required}${invalid}>${escapeHtml(text)}</textarea>${errorBlock(errId, messages)}</div>`;
    case 'checkbox':
      return `<div class="field"><label class="choice" for="${id}"><input type="checkbox" id="${id}" name="${name}" value="true"${value === true ? ' checked' : ''}${required}${invalid}> ${label}${mark}</label>${errorBlock(errId, messages)}</div>`;
    case 'select':
    case 'multi_select':
    case 'rating': {
      const choices = field.type === 'rating' ? Array.from({ length: RATING_MAX }, (_, i) => String(i + 1)) : (field.options ?? []);
      const chosen = asList(value);
      const type = field.type === 'multi_select' ? 'checkbox' : 'radio';
      const items = choices
        .map((c, i) => `<label class="choice" for="${id}_${i}"><input type="${type}" id="${id}_${i}" name="${name}" value="${escapeHtml(c)}"${chosen.includes(c) ? ' checked' : ''}> ${escapeHtml(c)}${field.type === 'rating' ? ` of ${RATING_MAX}` : ''}</label>`)
        .join('');
      const groupRequired = field.required ? ' aria-required="true"' : '';
      return `<fieldset class="field" role="${type === 'radio' ? 'radiogroup' : 'group'}"${groupRequired}${invalid}><legend>${label}${mark}</legend>${items}${errorBlock(errId, messages)}</fieldset>`;
    }
    default: {
      const inputType = field.type === 'number' ? 'number" step="any' : field.type === 'email' ? 'email' : field.type === 'date' ? 'date' : 'text';
      return `<div class="field"><label for="${id}">${label}${mark}</label><input type="${inputType}" id="${id}" name="${name}" value="${escapeHtml(text)}"${required}${invalid}>${errorBlock(errId, messages)}</div>`;
    }
  }
}

function questionsPage(res: Response, status: number, form: BrainForm, csrf: string, state: PageState): void {
  const errorCount = state.errors?.length ?? 0;
  const summary = errorCount
    ? `<div class="summary" role="alert"><p><strong>Please correct ${errorCount === 1 ? 'the answer' : `${errorCount} answers`} marked below.</strong></p></div>`
    : '';
  const nameErrors = (state.errors ?? []).filter((e) => e.path[0] === 'respondentName').map((e) => e.message);
  const nameField = form.config.collectRespondentName
    ? `<div class="field"><label for="respondentName">Your name</label><input type="text" id="respondentName" name="respondentName" autocomplete="name" value="${escapeHtml(state.respondentName ?? '')}"${nameErrors.length ? ' aria-invalid="true" aria-describedby="respondentName_error"' : ''}>${errorBlock('respondentName_error', nameErrors)}</div>`
    : '';
  const hasRequired = form.config.fields.some((f) => f.required);
  const body =
    `<h1>${escapeHtml(form.name)}</h1>` +
    (form.config.description ? `<p class="desc">${escapeHtml(form.config.description)}</p>` : '') +
    summary +
    (hasRequired ? `<p class="hint">Questions marked <span class="req" aria-hidden="true">*</span> (required) must be answered.</p>` : '') +
    `<form method="post" novalidate>` +
    `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrf)}"><input type="hidden" name="_action" value="submit">` +
    (state.password ? `<input type="hidden" name="accessPassword" value="${escapeHtml(state.password)}">` : '') +
    nameField +
    form.config.fields.map((f) => renderField(f, state)).join('') +
    `<button type="submit">Submit</button></form>`;
  page(res, status, form.name, body);
}

function passwordPage(res: Response, status: number, form: BrainForm, csrf: string, wrong: boolean): void {
  const body =
    `<h1>${escapeHtml(form.name)}</h1><p>This form is protected. Enter its password to open it.</p>` +
    `<form method="post" novalidate><input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrf)}"><input type="hidden" name="_action" value="unlock">` +
    `<div class="field"><label for="accessPassword">Password <span class="req" aria-hidden="true">*</span><span class="hint"> (required)</span></label>` +
    `<input type="password" id="accessPassword" name="accessPassword" autocomplete="off" aria-required="true"${wrong ? ' aria-invalid="true" aria-describedby="accessPassword_error"' : ''}>` +
    (wrong ? `<p class="error" id="accessPassword_error">The password is not right. Try again.</p>` : '') +
    `</div><button type="submit">Open the form</button></form>`;
  page(res, status, `${form.name}: password`, body);
}

function thankYouPage(res: Response, form: BrainForm, message: string, quiz: QuizResult | undefined): void {
  const score = quiz && form.config.showQuizScore ? `<p class="score" id="quiz-score">Your score: ${quiz.score} / ${quiz.max} (${quiz.pct}%)</p>` : '';
  page(res, 200, `${form.name}: thank you`, `<h1>Thank you</h1><p role="status" class="desc">${escapeHtml(message)}</p>${score}`);
}

const closedPage = (res: Response, status: number) => messagePage(res, status, 'This form is closed', 'This form no longer takes answers.');
const answeredPage = (res: Response, status: number) => messagePage(res, status, 'Already answered', 'You have already answered this form. Each person can answer it once.');
const lockedPage = (res: Response, error: FormPasswordLockedError) => {
  res.setHeader('Retry-After', String(error.retryAfterSeconds));
  messagePage(res, 429, 'Too many tries', 'This form had too many wrong passwords. Try again in a few minutes.');
};
const notFoundPage = (res: Response) => messagePage(res, 404, 'Form not found', 'There is no published form at this address.');

/** The answers of a posted page as the submit service takes them (types from the form's fields). */
function valuesFromPost(form: BrainForm, posted: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of form.config.fields) {
    const raw = posted[`f_${field.key}`];
    const one = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    switch (field.type) {
      case 'checkbox':
        values[field.key] = one === 'true';
        break;
      case 'multi_select':
        if (raw !== undefined) values[field.key] = asList(raw);
        break;
      case 'number':
      case 'rating':
        if (typeof one === 'string' && one.trim() !== '') values[field.key] = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(one.trim()) ? Number(one.trim()) : one;
        break;
      default:
        if (typeof one === 'string' && one !== '') values[field.key] = one;
    }
  }
  return values;
}

async function requestContext(deps: AppDeps, req: Request, res: Response): Promise<AppContext> {
  return createRequestContext(deps, req, res);
}

export function publicFormPageRoutes(deps: AppDeps): Router {
  const router = Router();
  const csrf = deps.formCsrf;

  router.get('/brain/f/:slug', async (req, res, next) => {
    try {
      const ctx = await requestContext(deps, req, res);
      let form: BrainForm;
      try {
        form = await publishedForm(ctx.em, req.params.slug as string);
      } catch {
        return notFoundPage(res);
      }
      if (isClosed(form.config)) return closedPage(res, 200);
      const respondent = { userId: ctx.auth?.user.id ?? null, key: respondentCookie(req) };
      if (await alreadyAnswered(ctx.em, form, respondent)) return answeredPage(res, 200);
      const token = csrf.token(req, res);
      if (form.accessPasswordHash && respondent.userId !== form.userId) return passwordPage(res, 200, form, token, false);
      questionsPage(res, 200, form, token, {});
    } catch (error) {
      next(error);
    }
  });

  router.post('/brain/f/:slug', ...csrf.protect, async (req, res, next) => {
    try {
      const ctx = await requestContext(deps, req, res);
      const posted = (req.body ?? {}) as Record<string, unknown>;
      let form: BrainForm;
      try {
        form = await publishedForm(ctx.em, req.params.slug as string);
      } catch {
        return notFoundPage(res);
      }
      if (isClosed(form.config)) return closedPage(res, 410);
      const userId = ctx.auth?.user.id ?? null;
      const password = typeof posted.accessPassword === 'string' ? posted.accessPassword : null;
      const token = csrf.token(req, res);
      const needsPassword = Boolean(form.accessPasswordHash) && userId !== form.userId;
      if (posted._action === 'unlock') {
        if (!needsPassword) return questionsPage(res, 200, form, token, {});
        try {
          if (!(await passwordOpens(form, password, deps.formPasswordAttempts))) return passwordPage(res, 401, form, token, true);
        } catch (error) {
          if (error instanceof FormPasswordLockedError) return lockedPage(res, error);
          throw error;
        }
        return questionsPage(res, 200, form, token, { password });
      }
      const values = valuesFromPost(form, posted);
      const respondentName = typeof posted.respondentName === 'string' ? posted.respondentName : undefined;
      const { key, cookieKey, setCookie } = respondentKeyFor(req, form, null);
      try {
        const result = await submitForm(
          ctx.em,
          form,
          { values, respondentName, accessPassword: password, passwordAttempts: deps.formPasswordAttempts },
          { userId, key, cookieKey, ip: req.ip ?? null, ipSalt: ipSalt(deps) },
        );
        if (setCookie && key) setRespondentCookie(deps, res, key);
        thankYouPage(res, form, result.thankYouMessage, result.quiz);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error instanceof FormPasswordLockedError) return lockedPage(res, error);
        if (error.code === 'UNAUTHORIZED') return passwordPage(res, 401, form, token, password !== null);
        if (error.code === 'CLOSED') return closedPage(res, 410);
        if (error.code === 'ALREADY_SUBMITTED') return answeredPage(res, 409);
        if (error.code === 'VALIDATION') {
          return questionsPage(res, 400, form, token, { values, respondentName, password, errors: (error.details?.errors as FieldError[]) ?? [] });
        }
        throw error;
      }
    } catch (error) {
      next(error);
    }
  });

  // Failures of this page answer as pages, not JSON: the CSRF check (403), a body too large, a fault.
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    if (error instanceof AppError && error.code === 'FORBIDDEN') return messagePage(res, 403, 'Please try again', `${error.message}.`);
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) (req as Request & { log?: AppContext['log'] }).log?.error({ err: error }, 'public form page failed');
    messagePage(res, status, status === 500 ? 'Something went wrong' : 'Bad request', status === 500 ? 'The form could not be shown. Please try again later.' : 'The request could not be read.');
  };
  router.use('/brain/f', onError);
  return router;
}
