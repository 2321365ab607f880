import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MikroORM } from '@mikro-orm/postgresql';
import { appOrmOptions } from '../../app/database.js';
import { EXPORT_REGISTRY, SECRET_LOOKING, isExported, type ExportedEntity } from './export-registry.js';
import { batchSql, exportModel, ownerPath, registryGaps, userOwnedEntities } from './export-model.js';

/**
 * The export registry against the entities the ORM knows (metadata only, no database). When a branch
 * adds an entity owned by a user, the first test fails and names it: add one line to
 * export-registry.ts (its domain and collection, or `excluded` with the reason).
 */
let orm: MikroORM;

beforeAll(async () => {
  orm = await MikroORM.init({ ...appOrmOptions('postgres://unused@127.0.0.1:1/unused'), connect: false });
});
afterAll(async () => {
  await orm?.close();
});

describe('export registry', () => {
  it('places every entity owned by a user in a domain of data.json or excludes it explicitly', () => {
    const gaps = registryGaps(orm.getMetadata(), EXPORT_REGISTRY, SECRET_LOOKING);
    expect(gaps.unregistered, 'add these entities to EXPORT_REGISTRY (src/portability/export/export-registry.ts)').toEqual([]);
    expect(gaps.duplicateCollections).toEqual([]);
  });

  it('exports no property that looks like a secret unless acknowledged, and names only real properties', () => {
    const gaps = registryGaps(orm.getMetadata(), EXPORT_REGISTRY, SECRET_LOOKING);
    expect(gaps.secretLooking, 'omit these (or list them in keep when they are not secret)').toEqual([]);
    expect(gaps.unknownProperties).toEqual([]);
    const model = exportModel(orm.getMetadata());
    const columns = (name: string) => model.byClass.get(name)!.columns.map((c) => c.name);
    expect(columns('User')).not.toContain('passwordHash');
    expect(columns('ApiKey')).not.toContain('keyHash');
    expect(columns('WebhookEndpoint')).not.toContain('secretEncrypted');
    expect(columns('WebhookEndpoint')).toContain('secretPrefix');
  });

  it('finds the gaps it is meant to find (the check can fail)', () => {
    const { Task: _task, LoginSession: _sessions, ...withoutTwo } = EXPORT_REGISTRY;
    const leaky = { ...withoutTwo, ApiKey: { domain: 'apiKeys', collection: 'keys' }, Book: { domain: 'reading', collection: 'books', omit: ['nope'] } };
    const gaps = registryGaps(orm.getMetadata(), leaky, SECRET_LOOKING);
    expect(gaps.unregistered).toEqual(['LoginSession', 'Task']);
    expect(gaps.secretLooking).toEqual(['ApiKey.keyHash']);
    expect(gaps.unknownProperties).toEqual(['Book.nope']);
  });

  it('reaches entities owned through a parent by a join path, and the user by its own id', () => {
    const meta = orm.getMetadata();
    expect(ownerPath(meta.find('BoardColumn')!, meta)!.map((p) => p.name)).toEqual(['projectId', 'userId']);
    expect(ownerPath(meta.find('DayPerimeterTask')!, meta)!.map((p) => p.name)).toEqual(['dayId', 'userId']);
    expect(ownerPath(meta.find('Task')!, meta)!.map((p) => p.name)).toEqual(['userId']);
    expect(ownerPath(meta.find('User')!, meta)).toEqual([]);
    expect(ownerPath(meta.find('OutboxEvent')!, meta)).toBeNull();
    const model = exportModel(meta);
    expect(batchSql(model.byClass.get('BoardColumn')!, 10)).toContain('JOIN "projects" t1 ON t1."id" = t0."project_id" WHERE t1."user_id" = ?');
    expect(batchSql(model.byClass.get('User')!, 10)).toContain('WHERE t0."id" = ?');
    // Every user-owned entity not excluded is in the model.
    const exported = userOwnedEntities(meta).filter((m) => isExported(EXPORT_REGISTRY[m.className]!)).map((m) => m.className);
    expect([...model.byClass.keys()].sort()).toEqual(exported.sort());
  });

  it('renders Brain notes (registered ahead of their module) and journal entries as Markdown', () => {
    const note = (EXPORT_REGISTRY.BrainNote as ExportedEntity).markdown!.render({
      id: '11111111-1111-4111-8111-111111111111',
      title: 'Trip: Lisbon / 2026',
      content: '- [ ] book flights',
      folderId: null,
      createdAt: '2026-03-02T10:00:00.000Z',
      updatedAt: '2026-03-02T10:00:00.000Z',
    });
    expect(note.name).toBe('trip-lisbon-2026-11111111-1111-4111-8111-111111111111.md');
    expect(note.text).toContain('\n# Trip: Lisbon / 2026\n\n- [ ] book flights\n');
    const entry = (EXPORT_REGISTRY.JournalEntry as ExportedEntity).markdown!.render({
      id: '22222222-2222-4222-8222-222222222222',
      dayId: '33333333-3333-4333-8333-333333333333',
      question: 'What went well?',
      answer: 'The run.',
      createdAt: '2026-03-02T21:00:00.000Z',
    });
    expect(entry.name).toBe('2026-03-02-what-went-well-22222222-2222-4222-8222-222222222222.md');
    expect(entry.text).toContain('## What went well?\n\nThe run.\n');
  });
});
