import { deleteReported } from '../../core/live/deletion-changes.queries.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { unstorableTextErrors } from '../../core/storable-text.js';
import { NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { BrainDatabase } from './brain-database.entity.js';
import { isPlainObject, readProperties, type PropertyDefinition } from './properties.js';

export interface DatabaseView {
  id: string;
  name: string;
  properties: PropertyDefinition[];
  createdAt: string;
  updatedAt: string;
}

export function databaseView(db: BrainDatabase): DatabaseView {
  return { id: db.id, name: db.name, properties: db.properties, createdAt: db.createdAt.toISOString(), updatedAt: db.updatedAt.toISOString() };
}

export interface DatabaseInput {
  name?: unknown;
  properties?: unknown;
}

export function readName(value: unknown, errors: FieldError[], path: string[] = ['name']): string {
  if (typeof value !== 'string' || !value.trim() || value.length > 200) {
    errors.push({ path, message: 'name must be a non-empty string of at most 200 characters' });
    return '';
  }
  return value.trim();
}

function onlyKeys(body: Record<string, unknown>, allowed: string[], errors: FieldError[]): void {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) errors.push({ path: [k], message: `unknown field ${k}` });
}

/** The caller's database or 404 (another user's answers exactly like a missing one). */
export async function ownDatabase(em: EntityManager, userId: string, id: string): Promise<BrainDatabase> {
  const db = await em.findOne(BrainDatabase, { id, userId });
  if (!db) throw new NotFoundError('Database');
  return db;
}

export async function listDatabases(em: EntityManager, userId: string): Promise<DatabaseView[]> {
  const rows = await em.find(BrainDatabase, { userId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
  return rows.map(databaseView);
}

/** Makes a database in the caller's unit of work (not flushed): the form service uses it for `createDatabase`. */
export function makeDatabase(em: EntityManager, userId: string, name: string, properties: PropertyDefinition[]): BrainDatabase {
  const db = em.create(BrainDatabase, { userId, name, properties });
  em.persist(db);
  return db;
}

export async function createDatabase(em: EntityManager, userId: string, body: unknown): Promise<DatabaseView> {
  const errors: FieldError[] = [];
  if (!isPlainObject(body)) throw new ValidationError('Body must be a JSON object', [{ path: [], message: 'body must be a JSON object' }]);
  onlyKeys(body, ['name', 'properties'], errors);
  errors.push(...unstorableTextErrors(body));
  const name = readName(body.name, errors);
  const properties = body.properties === undefined ? [] : readProperties(body.properties, errors);
  if (errors.length) throw new ValidationError('Invalid database', errors);
  const db = makeDatabase(em, userId, name, properties);
  await em.flush();
  return databaseView(db);
}

export async function updateDatabase(em: EntityManager, userId: string, id: string, body: unknown): Promise<DatabaseView> {
  const errors: FieldError[] = [];
  if (!isPlainObject(body)) throw new ValidationError('Body must be a JSON object', [{ path: [], message: 'body must be a JSON object' }]);
  onlyKeys(body, ['name', 'properties'], errors);
  errors.push(...unstorableTextErrors(body));
  const name = body.name === undefined ? undefined : readName(body.name, errors);
  const properties = body.properties === undefined ? undefined : readProperties(body.properties, errors);
  if (errors.length) throw new ValidationError('Invalid database', errors);
  const db = await ownDatabase(em, userId, id);
  if (name !== undefined) db.name = name;
  if (properties !== undefined) db.properties = properties;
  await em.flush();
  return databaseView(db);
}

/** Deletes the database with its records and the forms that fill it (foreign keys cascade). */
export async function deleteDatabase(em: EntityManager, userId: string, id: string): Promise<{ id: string; deleted: true }> {
  const db = await ownDatabase(em, userId, id);
  await em.transactional(async (tx) => {
    await deleteReported(tx, userId, BrainDatabase, { id: db.id, userId });
  });
  return { id: db.id, deleted: true };
}

