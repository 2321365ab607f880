import type { FieldError } from '../../core/errors.js';
import { isPlainObject, KEY_RE, readOptions, type PropertyDefinition, type PropertyType } from '../databases/properties.js';

export const FIELD_TYPES = ['text', 'long_text', 'number', 'email', 'select', 'multi_select', 'checkbox', 'date', 'rating'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A rating is a whole number of stars from 1 to 5 (Tally's default scale). */
export const RATING_MAX = 5;
export const MAX_FIELDS = 100;
/** Brain forms one user may have (the `enforce_row_cap` trigger, migration 20261124163000). */
export const MAX_FORMS = 200;

export interface FormField {
  key: string;
  label: string;
  type: FieldType;
  required?: boolean;
  options?: string[];
  /** the right answer: makes the form a quiz */
  correct?: unknown;
  /** points for a right answer (default 1) */
  points?: number;
}

/** operations.md's form `config` as stored: `accessPassword` lives hashed on the form, not here. */
export interface StoredFormConfig {
  description?: string;
  fields: FormField[];
  thankYouMessage?: string;
  showQuizScore?: boolean;
  collectRespondentName?: boolean;
  oneResponsePerPerson?: boolean;
  closed?: boolean;
  closesAt?: string;
}

export interface ReadConfig {
  config: StoredFormConfig;
  /** undefined: keep the stored password; null: remove it; a string: the new password */
  accessPassword: string | null | undefined;
}

const CONFIG_KEYS = ['description', 'fields', 'thankYouMessage', 'showQuizScore', 'collectRespondentName', 'accessPassword', 'oneResponsePerPerson', 'closed', 'closesAt'];
const FIELD_KEYS = ['key', 'label', 'type', 'required', 'options', 'correct', 'points'];

function optionalText(value: unknown, path: string, max: number, errors: FieldError[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max) {
    errors.push({ path: ['config', path], message: `${path} must be text of at most ${max} characters` });
    return undefined;
  }
  return value;
}

function optionalBool(value: unknown, path: string, errors: FieldError[]): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    errors.push({ path: ['config', path], message: `${path} must be true or false` });
    return undefined;
  }
  return value;
}

/** Whether `correct` fits the field's type (checked when the form is saved, so scoring never guesses). */
function correctError(field: FormField, correct: unknown): string | null {
  switch (field.type) {
    case 'select':
      return typeof correct === 'string' && (field.options ?? []).includes(correct) ? null : 'correct must be one of the options';
    case 'multi_select':
      return Array.isArray(correct) && correct.length > 0 && correct.every((c) => typeof c === 'string' && (field.options ?? []).includes(c)) ? null : 'correct must be a list of options';
    case 'number':
    case 'rating':
      return typeof correct === 'number' && Number.isFinite(correct) ? null : 'correct must be a number';
    case 'checkbox':
      return typeof correct === 'boolean' ? null : 'correct must be true or false';
    default:
      return typeof correct === 'string' && correct.length <= 1000 ? null : 'correct must be text';
  }
}

/** Checks a form `config` (operations.md); errors are VALIDATION_ERROR paths under `config`. */
export function readFormConfig(input: unknown, errors: FieldError[]): ReadConfig {
  if (!isPlainObject(input)) {
    errors.push({ path: ['config'], message: 'config must be an object' });
    return { config: { fields: [] }, accessPassword: undefined };
  }
  for (const k of Object.keys(input)) if (!CONFIG_KEYS.includes(k)) errors.push({ path: ['config', k], message: `unknown config field ${k}` });
  const config: StoredFormConfig = { fields: [] };
  const description = optionalText(input.description, 'description', 5000, errors);
  if (description !== undefined) config.description = description;
  const thankYou = optionalText(input.thankYouMessage, 'thankYouMessage', 5000, errors);
  if (thankYou !== undefined) config.thankYouMessage = thankYou;
  for (const flag of ['showQuizScore', 'collectRespondentName', 'oneResponsePerPerson', 'closed'] as const) {
    const v = optionalBool(input[flag], flag, errors);
    if (v !== undefined) config[flag] = v;
  }
  if (input.closesAt !== undefined && input.closesAt !== null) {
    if (typeof input.closesAt !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(input.closesAt) || Number.isNaN(Date.parse(input.closesAt))) {
      errors.push({ path: ['config', 'closesAt'], message: 'closesAt must be an ISO 8601 datetime' });
    } else config.closesAt = new Date(input.closesAt).toISOString();
  }
  let accessPassword: string | null | undefined;
  if (input.accessPassword === null || input.accessPassword === '') accessPassword = null;
  else if (input.accessPassword !== undefined) {
    if (typeof input.accessPassword !== 'string' || input.accessPassword.length > 200) errors.push({ path: ['config', 'accessPassword'], message: 'accessPassword must be text of at most 200 characters' });
    else accessPassword = input.accessPassword;
  }
  const fields = input.fields ?? [];
  if (!Array.isArray(fields) || fields.length > MAX_FIELDS) {
    errors.push({ path: ['config', 'fields'], message: `fields must be an array of at most ${MAX_FIELDS}` });
    return { config, accessPassword };
  }
  const seen = new Set<string>();
  fields.forEach((raw, i) => {
    const at = ['config', 'fields', i];
    if (!isPlainObject(raw)) {
      errors.push({ path: at, message: 'a field must be an object' });
      return;
    }
    for (const k of Object.keys(raw)) if (!FIELD_KEYS.includes(k)) errors.push({ path: [...at, k], message: `unknown field setting ${k}` });
    const { key, label, type, required, options, correct, points } = raw;
    if (typeof key !== 'string' || !KEY_RE.test(key)) errors.push({ path: [...at, 'key'], message: 'key must start with a letter and hold letters, digits or _ (at most 64)' });
    else if (seen.has(key)) errors.push({ path: [...at, 'key'], message: `key ${key} is used twice` });
    else seen.add(key);
    if (typeof label !== 'string' || !label.trim() || label.length > 500) errors.push({ path: [...at, 'label'], message: 'label must be a non-empty string of at most 500 characters' });
    if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type)) {
      errors.push({ path: [...at, 'type'], message: `type must be one of ${FIELD_TYPES.join(', ')}` });
      return;
    }
    const field: FormField = { key: key as string, label: typeof label === 'string' ? label.trim() : '', type: type as FieldType };
    if (required !== undefined && required !== null) {
      if (typeof required !== 'boolean') errors.push({ path: [...at, 'required'], message: 'required must be true or false' });
      else field.required = required;
    }
    if (type === 'select' || type === 'multi_select') {
      const opts = readOptions(options, errors, [...at, 'options']);
      if (opts) field.options = opts;
    } else if (options !== undefined && options !== null) errors.push({ path: [...at, 'options'], message: 'options only go with select and multi_select' });
    if (correct !== undefined && correct !== null) {
      const problem = correctError(field, correct);
      if (problem) errors.push({ path: [...at, 'correct'], message: problem });
      else field.correct = correct;
    }
    if (points !== undefined && points !== null) {
      if (typeof points !== 'number' || !Number.isFinite(points) || points < 0 || points > 1000) errors.push({ path: [...at, 'points'], message: 'points must be a number from 0 to 1000' });
      else field.points = points;
    }
    config.fields.push(field);
  });
  return { config, accessPassword };
}

export function isQuiz(config: StoredFormConfig): boolean {
  return config.fields.some((f) => f.correct !== undefined);
}

/** Closed by the flag or by `closesAt` having passed. */
export function isClosed(config: StoredFormConfig, now = new Date()): boolean {
  return config.closed === true || (config.closesAt !== undefined && Date.parse(config.closesAt) <= now.getTime());
}

const PROPERTY_OF_FIELD: Record<FieldType, PropertyType> = {
  text: 'text',
  long_text: 'text',
  number: 'number',
  email: 'email',
  select: 'select',
  multi_select: 'multi_select',
  checkbox: 'checkbox',
  date: 'date',
  rating: 'number',
};

/**
 * `syncFields`: the database's properties follow the form's fields — each field's property is added
 * or brought to the field's label, type and options; properties of no field are kept (their data too).
 */
export function syncedProperties(current: PropertyDefinition[], fields: FormField[]): PropertyDefinition[] {
  const out = current.map((p) => ({ ...p }));
  for (const field of fields) {
    const next: PropertyDefinition = { key: field.key, name: field.label.slice(0, 200), type: PROPERTY_OF_FIELD[field.type] };
    if (field.options) next.options = [...field.options];
    const i = out.findIndex((p) => p.key === field.key);
    if (i >= 0) out[i] = next;
    else out.push(next);
  }
  return out;
}
