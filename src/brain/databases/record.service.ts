import { withExpectedVersion } from '../../core/database/expected-version.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { unstorableTextErrors } from '../../core/storable-text.js';
import { NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../core/pagination.js';
import { BrainRecord } from './brain-record.entity.js';
import { recordPage, type RecordQuery } from './brain-data.queries.js';
import { ownDatabase } from './database.service.js';
import { checkRecordValues, isDateValue, isPlainObject, type PropertyDefinition } from './properties.js';
import { moveToTrash } from '../../trash/trash-kinds.js';
import { RECORD_TRASH } from './brain-record.trash.js';

export interface RecordView {
  id: string;
  databaseId: string;
  values: Record<string, unknown>;
  formId: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export function recordView(r: BrainRecord): RecordView {
  return { id: r.id, databaseId: r.databaseId, values: r.values, formId: r.formId ?? null, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(), version: r.version };
}

function body(input: unknown): Record<string, unknown> {
  if (!isPlainObject(input)) throw new ValidationError('Body must be a JSON object', [{ path: [], message: 'body must be a JSON object' }]);
  const errors: FieldError[] = [];
  for (const k of Object.keys(input)) if (k !== 'values') errors.push({ path: [k], message: `unknown field ${k}` });
  errors.push(...unstorableTextErrors(input.values, ['values']));
  if (errors.length) throw new ValidationError('Invalid record', errors);
  return input;
}

export async function createRecord(em: EntityManager, userId: string, databaseId: string, input: unknown): Promise<RecordView> {
  const b = body(input);
  const db = await ownDatabase(em, userId, databaseId);
  const errors: FieldError[] = [];
  const values = await checkRecordValues(em, userId, db.properties, b.values ?? {}, errors);
  if (errors.length) throw new ValidationError('Invalid record values', errors);
  for (const [k, v] of Object.entries(values)) if (v === null) delete values[k];
  const record = em.create(BrainRecord, { userId, databaseId: db.id, values });
  await em.persist(record).flush();
  return recordView(record);
}

async function ownRecord(em: EntityManager, userId: string, databaseId: string, recordId: string): Promise<BrainRecord> {
  const record = await em.findOne(BrainRecord, { id: recordId, databaseId, userId });
  if (!record) throw new NotFoundError('Record');
  return record;
}

export async function getRecord(em: EntityManager, userId: string, databaseId: string, recordId: string): Promise<RecordView> {
  return recordView(await ownRecord(em, userId, databaseId, recordId));
}

/** PATCH merges: keys given replace their value, `null` removes one, keys left out stay. */
export async function updateRecord(em: EntityManager, userId: string, databaseId: string, recordId: string, input: unknown, expectedVersion?: number | null): Promise<RecordView> {
  const b = body(input);
  const target = { entity: BrainRecord, where: { id: recordId, databaseId, userId }, resource: 'Record', view: recordView };
  return withExpectedVersion(em, target, expectedVersion, (tx) => applyRecordUpdate(tx, userId, databaseId, recordId, b));
}

async function applyRecordUpdate(em: EntityManager, userId: string, databaseId: string, recordId: string, b: Record<string, unknown>): Promise<RecordView> {
  const db = await ownDatabase(em, userId, databaseId);
  const record = await ownRecord(em, userId, db.id, recordId);
  const errors: FieldError[] = [];
  const values = await checkRecordValues(em, userId, db.properties, b.values ?? {}, errors);
  if (errors.length) throw new ValidationError('Invalid record values', errors);
  const merged = { ...record.values };
  for (const [k, v] of Object.entries(values)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  record.values = merged;
  await em.flush();
  return recordView(record);
}

/** With `expectedVersion`, refused (VERSION_CONFLICT) when the record changed since it was read; nothing is deleted. */
export async function deleteRecord(em: EntityManager, userId: string, databaseId: string, recordId: string, expectedVersion?: number | null): Promise<{ id: string; deleted: true }> {
  const target = { entity: BrainRecord, where: { id: recordId, databaseId, userId }, resource: 'Record', view: recordView };
  return withExpectedVersion(em, target, expectedVersion, (tx) => applyRecordDelete(tx, userId, databaseId, recordId));
}

async function applyRecordDelete(em: EntityManager, userId: string, databaseId: string, recordId: string): Promise<{ id: string; deleted: true }> {
  const record = await ownRecord(em, userId, databaseId, recordId);
  await em.transactional(async (tx) => {
    await moveToTrash(tx, userId, RECORD_TRASH, record.id, `Record of ${databaseId}`);
    await tx.flush();
    await tx.nativeDelete(BrainRecord, { id: record.id, userId });
  });
  return { id: record.id, deleted: true };
}

const SYSTEM_SORTS = new Set(['createdAt', 'updatedAt']);

function parseJsonObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Reads `filter[<key>]`, `sort`, `order`, `page`, `limit` from a query string. */
export function readRecordQuery(query: Record<string, unknown>, properties: PropertyDefinition[]): RecordQuery {
  const errors: FieldError[] = [];
  const byKey = new Map(properties.map((p) => [p.key, p]));
  const filter: Record<string, string> = {};
  // `filter[<key>]=<value>` or one JSON object `filter={"<key>":"<value>"}` (the form a REST query carries to GraphQL).
  const rawFilter = typeof query.filter === 'string' ? parseJsonObject(query.filter) : query.filter;
  if (rawFilter !== undefined) {
    if (!isPlainObject(rawFilter)) errors.push({ path: ['filter'], message: 'filter is given as filter[<propertyKey>]=<value> or as one JSON object' });
    else
      for (const [key, value] of Object.entries(rawFilter)) {
        const def = byKey.get(key);
        if (!def) errors.push({ path: ['filter', key], message: `unknown property ${key}` });
        else if (typeof value !== 'string') errors.push({ path: ['filter', key], message: 'give each filter once, as text' });
        else if (def.type === 'number' && !Number.isFinite(Number(value))) errors.push({ path: ['filter', key], message: 'must be a number' });
        else if (def.type === 'checkbox' && value !== 'true' && value !== 'false') errors.push({ path: ['filter', key], message: 'must be true or false' });
        else if (def.type === 'date' && !isDateValue(value)) errors.push({ path: ['filter', key], message: 'must be a date' });
        else filter[key] = value;
      }
  }
  const text = (name: string): string | undefined => {
    const v = query[name];
    if (v === undefined || v === '') return undefined;
    if (typeof v !== 'string') {
      errors.push({ path: [name], message: `${name} must be given once` });
      return undefined;
    }
    return v;
  };
  const sort = text('sort') ?? 'createdAt';
  if (!SYSTEM_SORTS.has(sort) && !byKey.has(sort)) errors.push({ path: ['sort'], message: 'sort must be createdAt, updatedAt or a property key' });
  const order = text('order') ?? (SYSTEM_SORTS.has(sort) ? 'desc' : 'asc');
  if (order !== 'asc' && order !== 'desc') errors.push({ path: ['order'], message: 'order must be asc or desc' });
  const int = (name: string, fallback: number): number => {
    const v = text(name);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < 1) {
      errors.push({ path: [name], message: `${name} must be a positive integer` });
      return fallback;
    }
    return Number(v);
  };
  const page = int('page', 1);
  const limit = Math.min(int('limit', DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
  if (errors.length) throw new ValidationError('Invalid records query', errors);
  return { filter, sort, order: order as 'asc' | 'desc', page, limit };
}

/** The page of records matching the filters, in the asked order, with the total (brain-data.queries.ts). */
export async function listRecords(em: EntityManager, userId: string, databaseId: string, query: Record<string, unknown>) {
  const db = await ownDatabase(em, userId, databaseId);
  const q = readRecordQuery(query, db.properties);
  const { rows, total } = await recordPage(em, userId, db.id, db.properties, q);
  const items: RecordView[] = rows.map((r) => ({
    id: r.id,
    databaseId: r.database_id,
    values: r.values,
    formId: r.form_id,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    version: r.version,
  }));
  return { items, meta: { page: q.page, limit: q.limit, total } };
}
