import { deleteReported } from '../../core/live/deletion-changes.queries.js';
import { randomBytes } from 'node:crypto';
import { isUuid } from '../../core/scalars.js';
import { unstorableTextErrors } from '../../core/storable-text.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hashPassword } from '../../accounts/password.js';
import { NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { BrainDatabase } from '../databases/brain-database.entity.js';
import { databaseView, makeDatabase, readName, type DatabaseView } from '../databases/database.service.js';
import { isPlainObject } from '../databases/properties.js';
import { BrainForm } from './brain-form.entity.js';
import { readFormConfig, syncedProperties, type FormField, type StoredFormConfig } from './form-config.js';


export interface FormView {
  id: string;
  name: string;
  databaseId: string;
  /** operations.md's config, without `accessPassword` (never read back) */
  config: StoredFormConfig & { hasAccessPassword: boolean };
  hasAccessPassword: boolean;
  syncFields: boolean;
  published: boolean;
  publicSlug: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The editor payload of `GET /brain/forms/:id`: the form, its fields and its database. */
export interface FormEditorView extends FormView {
  fields: FormField[];
  database: DatabaseView;
}

export function formView(form: BrainForm): FormView {
  const hasAccessPassword = Boolean(form.accessPasswordHash);
  return {
    id: form.id,
    name: form.name,
    databaseId: form.databaseId,
    config: { ...form.config, hasAccessPassword },
    hasAccessPassword,
    syncFields: form.syncFields,
    published: form.published,
    publicSlug: form.publicSlug ?? null,
    createdAt: form.createdAt.toISOString(),
    updatedAt: form.updatedAt.toISOString(),
  };
}

function editorView(form: BrainForm, db: BrainDatabase): FormEditorView {
  return { ...formView(form), fields: form.config.fields, database: databaseView(db) };
}

/** The caller's form or 404 (another user's answers exactly like a missing one). */
export async function ownForm(em: EntityManager, userId: string, formId: string): Promise<BrainForm> {
  const form = isUuid(formId) ? await em.findOne(BrainForm, { id: formId.toLowerCase(), userId }) : null;
  if (!form) throw new NotFoundError('Form');
  return form;
}

function requireBody(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) throw new ValidationError('Body must be a JSON object', [{ path: [], message: 'body must be a JSON object' }]);
  return body;
}

function optionalBool(body: Record<string, unknown>, key: string, errors: FieldError[]): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') errors.push({ path: [key], message: `${key} must be true or false` });
  return typeof v === 'boolean' ? v : undefined;
}

export async function listForms(em: EntityManager, userId: string): Promise<FormView[]> {
  const rows = await em.find(BrainForm, { userId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
  return rows.map(formView);
}

export async function getForm(em: EntityManager, userId: string, formId: string): Promise<FormEditorView> {
  const form = await ownForm(em, userId, formId);
  const db = await em.findOneOrFail(BrainDatabase, { id: form.databaseId, userId });
  return editorView(form, db);
}

export interface MakeFormInput {
  name?: unknown;
  databaseId?: unknown;
  createDatabase?: unknown;
  config?: unknown;
  syncFields?: unknown;
}

/**
 * Makes a form over one of the caller's databases (`databaseId`) or a new one (`createDatabase`).
 * `syncFields` defaults to true with `createDatabase` (the new database takes the fields as
 * properties) and to false with an existing database (its properties stay as they are).
 */
export async function makeForm(em: EntityManager, userId: string, input: unknown): Promise<FormEditorView> {
  const body = requireBody(input);
  const errors: FieldError[] = [];
  for (const k of Object.keys(body)) if (!['name', 'databaseId', 'createDatabase', 'config', 'syncFields'].includes(k)) errors.push({ path: [k], message: `unknown field ${k}` });
  errors.push(...unstorableTextErrors(body));
  const name = readName(body.name, errors);
  let databaseId: string | undefined;
  let newDatabaseName: string | undefined;
  if (body.databaseId !== undefined && body.databaseId !== null && body.createDatabase !== undefined && body.createDatabase !== null) {
    errors.push({ path: ['databaseId'], message: 'give databaseId or createDatabase, not both' });
  } else if (body.databaseId !== undefined && body.databaseId !== null) {
    if (!isUuid(body.databaseId)) errors.push({ path: ['databaseId'], message: 'databaseId must be a UUID' });
    else databaseId = body.databaseId.toLowerCase();
  } else if (body.createDatabase !== undefined && body.createDatabase !== null) {
    if (!isPlainObject(body.createDatabase)) errors.push({ path: ['createDatabase'], message: 'createDatabase must be { name }' });
    else {
      for (const k of Object.keys(body.createDatabase)) if (k !== 'name') errors.push({ path: ['createDatabase', k], message: `unknown field ${k}` });
      newDatabaseName = readName(body.createDatabase.name, errors, ['createDatabase', 'name']);
    }
  } else errors.push({ path: ['databaseId'], message: 'give databaseId or createDatabase: { name }' });
  const { config, accessPassword } = body.config === undefined || body.config === null ? { config: { fields: [] }, accessPassword: undefined } : readFormConfig(body.config, errors);
  const syncFields = optionalBool(body, 'syncFields', errors) ?? newDatabaseName !== undefined;
  if (errors.length) throw new ValidationError('Invalid form', errors);

  let db: BrainDatabase;
  if (databaseId) {
    const found = await em.findOne(BrainDatabase, { id: databaseId, userId });
    if (!found) throw new NotFoundError('Database');
    db = found;
  } else db = makeDatabase(em, userId, newDatabaseName!, []);
  if (syncFields) db.properties = syncedProperties(db.properties, config.fields);
  const form = em.create(BrainForm, {
    userId,
    name,
    databaseId: db.id,
    config,
    syncFields,
    accessPasswordHash: accessPassword ? await hashPassword(accessPassword) : null,
  });
  await em.persist(form).flush();
  return editorView(form, db);
}

/** `name?`, `config?` (replaces the config; `accessPassword` left out keeps the stored one, null removes it), `syncFields?`. */
export async function updateForm(em: EntityManager, userId: string, formId: string, input: unknown): Promise<FormEditorView> {
  const body = requireBody(input);
  const errors: FieldError[] = [];
  for (const k of Object.keys(body)) if (!['name', 'config', 'syncFields'].includes(k)) errors.push({ path: [k], message: `unknown field ${k}` });
  errors.push(...unstorableTextErrors(body));
  const name = body.name === undefined ? undefined : readName(body.name, errors);
  const read = body.config === undefined ? undefined : readFormConfig(body.config, errors);
  const syncFields = optionalBool(body, 'syncFields', errors);
  if (errors.length) throw new ValidationError('Invalid form', errors);
  const form = await ownForm(em, userId, formId);
  const db = await em.findOneOrFail(BrainDatabase, { id: form.databaseId, userId });
  if (name !== undefined) form.name = name;
  if (read) {
    form.config = read.config;
    if (read.accessPassword === null) form.accessPasswordHash = null;
    else if (read.accessPassword !== undefined) form.accessPasswordHash = await hashPassword(read.accessPassword);
  }
  if (syncFields !== undefined) form.syncFields = syncFields;
  if (form.syncFields) db.properties = syncedProperties(db.properties, form.config.fields);
  await em.flush();
  return editorView(form, db);
}

/** spec states: publishing assigns `publicSlug` (kept when unpublished, so a shared link comes back). */
export async function publishForm(em: EntityManager, userId: string, formId: string, input: unknown): Promise<FormView> {
  const body = requireBody(input);
  const errors: FieldError[] = [];
  for (const k of Object.keys(body)) if (k !== 'published') errors.push({ path: [k], message: `unknown field ${k}` });
  if (typeof body.published !== 'boolean') errors.push({ path: ['published'], message: 'published must be true or false' });
  if (errors.length) throw new ValidationError('Invalid publish request', errors);
  const form = await ownForm(em, userId, formId);
  form.published = body.published as boolean;
  if (form.published && !form.publicSlug) form.publicSlug = randomBytes(9).toString('base64url');
  await em.flush();
  return formView(form);
}

/** Deletes the form; its database and the records its answers made stay. */
export async function deleteForm(em: EntityManager, userId: string, formId: string): Promise<{ id: string; deleted: true }> {
  const form = await ownForm(em, userId, formId);
  await em.transactional(async (tx) => {
    await deleteReported(tx, userId, BrainForm, { id: form.id, userId });
  });
  return { id: form.id, deleted: true };
}
