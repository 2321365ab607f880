import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldError } from '../../core/errors.js';
import { isLocalDate, isUuid } from '../../core/scalars.js';
import { StoredFile } from '../../files/stored-file.entity.js';

export const PROPERTY_TYPES = ['text', 'number', 'select', 'multi_select', 'date', 'checkbox', 'url', 'email', 'file'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export interface PropertyDefinition {
  key: string;
  name: string;
  type: PropertyType;
  options?: string[];
}

export const MAX_PROPERTIES = 100;
/** Brain databases one user may have (the `enforce_row_cap` trigger, migration 20261124163000). */
export const MAX_DATABASES = 200;
export const MAX_OPTIONS = 100;
export const MAX_TEXT_VALUE = 10_000;
/** Keys are identifiers; `__` starts the service's own keys (quiz score, respondent). */
export const KEY_RE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A date value: `YYYY-MM-DD` or an ISO 8601 datetime with offset. */
export function isDateValue(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (isLocalDate(value)) return true;
  const text: string = value;
  return DATETIME_RE.test(text) && !Number.isNaN(Date.parse(text)) && isLocalDate(text.slice(0, 10));
}

export function isEmail(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 320 && EMAIL_RE.test(value);
}

export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2000) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Checks `properties[]` of a database body; returns the clean definitions. */
export function readProperties(input: unknown, errors: FieldError[], path: (string | number)[] = ['properties']): PropertyDefinition[] {
  if (!Array.isArray(input)) {
    errors.push({ path, message: 'properties must be an array' });
    return [];
  }
  if (input.length > MAX_PROPERTIES) errors.push({ path, message: `at most ${MAX_PROPERTIES} properties` });
  const seen = new Set<string>();
  const out: PropertyDefinition[] = [];
  input.forEach((raw, i) => {
    const at = [...path, i];
    if (!isPlainObject(raw)) {
      errors.push({ path: at, message: 'a property must be an object' });
      return;
    }
    for (const k of Object.keys(raw)) if (!['key', 'name', 'type', 'options'].includes(k)) errors.push({ path: [...at, k], message: `unknown field ${k}` });
    const { key, name, type, options } = raw;
    if (typeof key !== 'string' || !KEY_RE.test(key)) errors.push({ path: [...at, 'key'], message: 'key must start with a letter and hold letters, digits or _ (at most 64)' });
    else if (seen.has(key)) errors.push({ path: [...at, 'key'], message: `key ${key} is used twice` });
    else seen.add(key);
    if (typeof name !== 'string' || !name.trim() || name.length > 200) errors.push({ path: [...at, 'name'], message: 'name must be a non-empty string of at most 200 characters' });
    if (typeof type !== 'string' || !(PROPERTY_TYPES as readonly string[]).includes(type)) errors.push({ path: [...at, 'type'], message: `type must be one of ${PROPERTY_TYPES.join(', ')}` });
    const def: PropertyDefinition = { key: key as string, name: typeof name === 'string' ? name.trim() : '', type: type as PropertyType };
    if (type === 'select' || type === 'multi_select') {
      const opts = readOptions(options, errors, [...at, 'options']);
      if (opts) def.options = opts;
    } else if (options !== undefined) errors.push({ path: [...at, 'options'], message: 'options only go with select and multi_select' });
    out.push(def);
  });
  return out;
}

export function readOptions(options: unknown, errors: FieldError[], path: (string | number)[]): string[] | undefined {
  if (!Array.isArray(options) || options.length === 0 || options.length > MAX_OPTIONS) {
    errors.push({ path, message: `options must be an array of 1 to ${MAX_OPTIONS} distinct strings` });
    return undefined;
  }
  const clean: string[] = [];
  options.forEach((o, i) => {
    if (typeof o !== 'string' || !o.trim() || o.length > 200) errors.push({ path: [...path, i], message: 'an option is a non-empty string of at most 200 characters' });
    else if (clean.includes(o)) errors.push({ path: [...path, i], message: `option ${o} is given twice` });
    else clean.push(o);
  });
  return clean;
}

/** The type rule of one value (null clears a value and is always accepted). */
function valueError(def: PropertyDefinition, value: unknown): string | null {
  if (value === null) return null;
  switch (def.type) {
    case 'text':
      return typeof value === 'string' && value.length <= MAX_TEXT_VALUE ? null : `must be text of at most ${MAX_TEXT_VALUE} characters`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      return isDateValue(value) ? null : 'must be a date (YYYY-MM-DD) or an ISO 8601 datetime';
    case 'url':
      return isHttpUrl(value) ? null : 'must be an http(s) URL';
    case 'email':
      return isEmail(value) ? null : 'must be an email address';
    case 'select':
      return typeof value === 'string' && (def.options ?? []).includes(value) ? null : `must be one of the options: ${(def.options ?? []).join(', ')}`;
    case 'multi_select':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && (def.options ?? []).includes(v)) && new Set(value).size === value.length
        ? null
        : `must be a list of distinct options among: ${(def.options ?? []).join(', ')}`;
    case 'file':
      return isUuid(value) ? null : 'must be the id of one of your files';
  }
}

/**
 * Checks record `values` against the database's properties: unknown keys, wrong types and unknown
 * options are refused; a `file` value must be one of the caller's files (checked in one statement).
 */
export async function checkRecordValues(
  em: EntityManager,
  userId: string,
  properties: PropertyDefinition[],
  input: unknown,
  errors: FieldError[],
): Promise<Record<string, unknown>> {
  if (!isPlainObject(input)) {
    errors.push({ path: ['values'], message: 'values must be an object keyed by property key' });
    return {};
  }
  const byKey = new Map(properties.map((p) => [p.key, p]));
  const fileIds: { key: string; id: string }[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const def = byKey.get(key);
    if (!def) {
      errors.push({ path: ['values', key], message: `unknown property ${key}` });
      continue;
    }
    const problem = valueError(def, value);
    if (problem) {
      errors.push({ path: ['values', key], message: `${def.name} ${problem}` });
      continue;
    }
    if (def.type === 'file' && typeof value === 'string') fileIds.push({ key, id: value.toLowerCase() });
    out[key] = def.type === 'file' && typeof value === 'string' ? value.toLowerCase() : value;
  }
  if (fileIds.length) {
    const own = await em.find(StoredFile, { id: { $in: fileIds.map((f) => f.id) }, userId }, { fields: ['id'] });
    const ownIds = new Set(own.map((f) => f.id));
    for (const f of fileIds) if (!ownIds.has(f.id)) errors.push({ path: ['values', f.key], message: 'must be the id of one of your files' });
  }
  return out;
}
