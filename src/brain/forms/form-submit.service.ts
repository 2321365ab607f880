import { createHash } from 'node:crypto';
import { unstorableTextErrors, unstorableTextReason } from '../../core/storable-text.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { verifyPassword } from '../../accounts/password.js';
import { NotFoundError, UnauthorizedError, type FieldError } from '../../core/errors.js';
import { recordEvent } from '../../core/events/record-event.js';
import { BrainDatabase } from '../databases/brain-database.entity.js';
import { BrainRecord } from '../databases/brain-record.entity.js';
import { databaseView, type DatabaseView } from '../databases/database.service.js';
import { isDateValue, isEmail, isPlainObject, MAX_TEXT_VALUE } from '../databases/properties.js';
import { recordView, type RecordView } from '../databases/record.service.js';
import { BrainForm } from './brain-form.entity.js';
import { isClosed, isQuiz, RATING_MAX, type FormField, type StoredFormConfig } from './form-config.js';
import { AlreadySubmittedError, FormClosedError, FormValidationError } from './form-errors.js';
import { formView, ownForm, type FormView } from './form.service.js';
import type { FormPasswordAttempts } from './form-password-attempts.js';

export const DEFAULT_THANK_YOU = 'Thank you! Your answer has been recorded.';

/** spec: the respondent fingerprint fields, kept on the record and removed from the event's `values`. */
export const FINGERPRINT_FIELDS = ['__respondentKey', '__respondentUserId', '__respondentIpHash', '__respondentSignals', '__respondentAt'] as const;

export interface QuizResult {
  score: number;
  max: number;
  pct: number;
}

/** What a respondent sends, whichever door (session, public REST, public page, assistant connector). */
export interface SubmitInput {
  values: unknown;
  respondentName?: unknown;
  /** the access password as sent (header, query or body); not needed from the form's owner */
  accessPassword?: string | null;
  /** the per-form count of wrong passwords (public doors) */
  passwordAttempts?: FormPasswordAttempts | null;
}

/** Who submits, as far as the door knows it. */
export interface Respondent {
  /** the signed-in user, if any */
  userId?: string | null;
  /** the client's `respondentKey` or the respondent cookie */
  key?: string | null;
  /** the respondent cookie, when the client also sent a different `respondentKey`: it counts too */
  cookieKey?: string | null;
  /** the client address; only its salted hash is kept */
  ip?: string | null;
  /** salt of the IP hash (a server secret) */
  ipSalt?: string;
}

export interface SubmitResult {
  form: FormView;
  database: DatabaseView;
  record: RecordView;
  quiz?: QuizResult;
  thankYouMessage: string;
}

export function hashIp(ip: string, salt: string): string {
  return createHash('sha256').update(`${salt}:${ip}`).digest('hex');
}

/** A published form by its slug, or 404 (unknown and unpublished slugs answer alike). */
export async function publishedForm(em: EntityManager, slug: string): Promise<BrainForm> {
  const form = typeof slug === 'string' && slug.length <= 32 ? await em.findOne(BrainForm, { publicSlug: slug, published: true }) : null;
  if (!form) throw new NotFoundError('Form');
  return form;
}

/**
 * Whether `password` opens the form (always true for a form without a password). With `attempts`, a
 * form over its limit of wrong passwords refuses with 429 before checking, and a wrong one counts.
 */
export async function passwordOpens(form: BrainForm, password: string | null | undefined, attempts?: FormPasswordAttempts | null): Promise<boolean> {
  if (!form.accessPasswordHash) return true;
  if (typeof password !== 'string' || !password) return false;
  await attempts?.ensureOpen(form.id);
  const opens = await verifyPassword(form.accessPasswordHash, password);
  if (!opens) await attempts?.failed(form.id);
  return opens;
}

export async function requirePassword(form: BrainForm, password: string | null | undefined, attempts?: FormPasswordAttempts | null): Promise<void> {
  if (!(await passwordOpens(form, password, attempts))) {
    throw Object.assign(new UnauthorizedError('This form needs its access password'), { details: { passwordRequired: true } });
  }
}

/** Whether this respondent already answered a one-response form. */
export async function alreadyAnswered(em: EntityManager, form: BrainForm, respondent: Respondent): Promise<boolean> {
  if (!form.config.oneResponsePerPerson) return false;
  const or: Record<string, unknown>[] = [];
  if (respondent.userId) or.push({ respondentUserId: respondent.userId });
  for (const key of [respondent.key, respondent.cookieKey]) if (key) or.push({ respondentKey: key });
  if (!or.length) return false;
  return (await em.count(BrainRecord, { formId: form.id, $or: or } as never)) > 0;
}

function answerError(field: FormField, value: unknown): string | null {
  switch (field.type) {
    case 'text':
      return typeof value === 'string' && value.length <= 1000 ? null : 'must be text of at most 1000 characters';
    case 'long_text':
      return typeof value === 'string' && value.length <= MAX_TEXT_VALUE ? null : `must be text of at most ${MAX_TEXT_VALUE} characters`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'email':
      return isEmail(value) ? null : 'must be an email address';
    case 'select':
      return typeof value === 'string' && (field.options ?? []).includes(value) ? null : 'must be one of the choices';
    case 'multi_select':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && (field.options ?? []).includes(v)) && new Set(value).size === value.length ? null : 'must be a list of the choices';
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      return isDateValue(value) ? null : 'must be a date (YYYY-MM-DD)';
    case 'rating':
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= RATING_MAX ? null : `must be a whole number from 1 to ${RATING_MAX}`;
  }
}

function isEmptyAnswer(field: FormField, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  // A required checkbox must be ticked (an "I agree" box), as in Tally.
  return field.type === 'checkbox' && value === false;
}

/** Checks the answers against the form's fields; errors are paths under `values`. */
export function checkAnswers(config: StoredFormConfig, input: unknown, respondentName: unknown): { values: Record<string, unknown>; errors: FieldError[]; respondentName: string | null } {
  const errors: FieldError[] = [];
  const values: Record<string, unknown> = {};
  if (!isPlainObject(input)) return { values, errors: [{ path: ['values'], message: 'values must be an object keyed by field key' }], respondentName: null };
  const byKey = new Map(config.fields.map((f) => [f.key, f]));
  let name: unknown = respondentName ?? input.__respondentName;
  for (const key of Object.keys(input)) if (key !== '__respondentName' && !byKey.has(key)) errors.push({ path: ['values', key], message: `unknown field ${key}` });
  for (const field of config.fields) {
    const value = input[field.key];
    if (isEmptyAnswer(field, value)) {
      if (field.required) errors.push({ path: ['values', field.key], message: `${field.label} is required` });
      else if (value === false) values[field.key] = false;
      continue;
    }
    const problem = answerError(field, value);
    const unstorable = unstorableTextErrors(value, ['values', field.key]);
    if (problem) errors.push({ path: ['values', field.key], message: `${field.label} ${problem}` });
    else if (unstorable.length) errors.push(...unstorable);
    else values[field.key] = typeof value === 'string' ? value.trim() : value;
  }
  if (name === '' || name === null) name = undefined;
  if (name !== undefined && (typeof name !== 'string' || name.length > 200 || unstorableTextReason(name))) {
    errors.push({ path: ['respondentName'], message: 'respondentName must be text of at most 200 characters, without a NUL or invalid Unicode' });
    name = undefined;
  }
  const cleanName = typeof name === 'string' && name.trim() ? name.trim() : null;
  if (cleanName) values.__respondentName = cleanName;
  return { values, errors, respondentName: cleanName };
}

function rightAnswer(field: FormField, value: unknown): boolean {
  const correct = field.correct;
  if (value === undefined || value === null) return false;
  switch (field.type) {
    case 'multi_select':
      return Array.isArray(value) && Array.isArray(correct) && value.length === correct.length && correct.every((c) => value.includes(c));
    case 'text':
    case 'long_text':
    case 'email':
      return typeof value === 'string' && typeof correct === 'string' && value.trim().toLowerCase() === correct.trim().toLowerCase();
    default:
      return value === correct;
  }
}

/** operations.md: a quiz scores `{ score, max, pct }`, pct 0-100 rounded; a field is worth `points` (default 1). */
export function scoreQuiz(config: StoredFormConfig, values: Record<string, unknown>): QuizResult | null {
  if (!isQuiz(config)) return null;
  let score = 0;
  let max = 0;
  for (const field of config.fields) {
    if (field.correct === undefined) continue;
    const points = field.points ?? 1;
    max += points;
    if (rightAnswer(field, values[field.key])) score += points;
  }
  return { score, max, pct: max > 0 ? Math.round((score / max) * 100) : 0 };
}

/**
 * The one submit of every door. Checks, in order: access password (401, not asked of the owner),
 * closing (410), one response per person (409), answers (400 VALIDATION); then scores a quiz, creates
 * the record and records `brain_form_submitted` for the form's owner in the same transaction.
 */
export async function submitForm(em: EntityManager, form: BrainForm, input: SubmitInput, respondent: Respondent): Promise<SubmitResult> {
  const byOwner = respondent.userId === form.userId;
  if (!byOwner) await requirePassword(form, input.accessPassword, input.passwordAttempts);
  if (isClosed(form.config)) throw new FormClosedError();
  const oneResponse = form.config.oneResponsePerPerson === true;
  if (await alreadyAnswered(em, form, respondent)) throw new AlreadySubmittedError();
  const { values, errors, respondentName } = checkAnswers(form.config, input.values, input.respondentName);
  if (errors.length) throw new FormValidationError(errors);
  const quiz = scoreQuiz(form.config, values);
  if (quiz) {
    values.__quiz_score = quiz.score;
    values.__quiz_max = quiz.max;
    values.__quiz_pct = quiz.pct;
  }
  const submittedAt = new Date();
  const ipHash = respondent.ip && respondent.ipSalt ? hashIp(respondent.ip, respondent.ipSalt) : null;
  const stored: Record<string, unknown> = { ...values };
  if (respondent.key) stored.__respondentKey = respondent.key;
  if (respondent.userId) stored.__respondentUserId = respondent.userId;
  if (ipHash) stored.__respondentIpHash = ipHash;
  stored.__respondentAt = submittedAt.toISOString();

  const db = await em.findOneOrFail(BrainDatabase, { id: form.databaseId });
  const record = em.create(BrainRecord, {
    userId: form.userId,
    databaseId: db.id,
    values: stored,
    formId: form.id,
    // The one-response rule is also a unique index on (form, respondent): two racing submits cannot both land.
    respondentKey: oneResponse ? (respondent.key ?? null) : null,
    respondentUserId: oneResponse ? (respondent.userId ?? null) : null,
    respondentIpHash: ipHash,
    createdAt: submittedAt,
    updatedAt: submittedAt,
  });
  em.persist(record);
  const eventValues = Object.fromEntries(Object.entries(stored).filter(([k]) => !(FINGERPRINT_FIELDS as readonly string[]).includes(k)));
  recordEvent(
    em,
    form.userId,
    'brain_form_submitted',
    {
      formId: form.id,
      formName: form.name,
      publicSlug: form.publicSlug ?? null,
      databaseId: db.id,
      recordId: record.id,
      values: eventValues,
      respondentName,
      quiz,
      submittedAt: submittedAt.toISOString(),
    },
    submittedAt,
  );
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      em.clear();
      throw new AlreadySubmittedError();
    }
    throw error;
  }
  return {
    form: formView(form),
    database: databaseView(db),
    record: recordView(record),
    ...(quiz ? { quiz } : {}),
    thankYouMessage: form.config.thankYouMessage ?? DEFAULT_THANK_YOU,
  };
}

/** The session and assistant-connector door: the owner submits to their own form by id. */
export async function submitOwnForm(em: EntityManager, userId: string, formId: string, input: { values: unknown; respondentName?: unknown }): Promise<SubmitResult> {
  const form = await ownForm(em, userId, formId);
  return submitForm(em, form, { values: input.values, respondentName: input.respondentName }, { userId });
}

/**
 * What a public submit answers: the respondent sees the form's name, the record's id and their own
 * answers — not the owner's database layout, the fingerprint fields, or a score the form hides.
 */
export function publicSubmitView(form: BrainForm, result: SubmitResult) {
  const showScore = form.config.showQuizScore === true;
  const hidden = new Set<string>([...FINGERPRINT_FIELDS, ...(showScore ? [] : ['__quiz_score', '__quiz_max', '__quiz_pct'])]);
  return {
    form: { id: form.id, name: form.name, publicSlug: form.publicSlug },
    database: { id: result.database.id, name: result.database.name },
    record: { id: result.record.id, values: Object.fromEntries(Object.entries(result.record.values).filter(([k]) => !hidden.has(k))), createdAt: result.record.createdAt },
    ...(showScore && result.quiz ? { quiz: result.quiz } : {}),
    thankYouMessage: result.thankYouMessage,
  };
}

/** The questions of a published form as a respondent sees them (no right answers, no points). */
export function publicFormView(form: BrainForm, alreadySubmitted: boolean) {
  const closed = isClosed(form.config);
  return {
    publicSlug: form.publicSlug,
    name: form.name,
    description: form.config.description ?? null,
    closed,
    closesAt: form.config.closesAt ?? null,
    requiresPassword: Boolean(form.accessPasswordHash),
    collectRespondentName: form.config.collectRespondentName === true,
    oneResponsePerPerson: form.config.oneResponsePerPerson === true,
    isQuiz: isQuiz(form.config),
    alreadySubmitted,
    fields: closed ? [] : form.config.fields.map((f) => ({ key: f.key, label: f.label, type: f.type, required: f.required === true, ...(f.options ? { options: f.options } : {}) })),
  };
}
