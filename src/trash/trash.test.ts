import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { expectNotFound, expectRule, expectValidation } from '../../test/support/expectations.js';
import { MISSING_ID, weekDayIds } from '../../test/support/fixtures.js';
import { blobsOnDisk, makePdf, upload } from '../files/files.test-helpers.js';
import { copyRow, createHabit, logEntry, setTimezone, xpOf } from '../habits/habits.test-helpers.js';
import { sql } from '../../test/support/db.js';
import { TrashService } from './trash.service.js';

/** The trash (docs/trash.md): round trips per kind, exact balances, XP and streaks, refusals, the purge, isolation. */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;

const WEEK = '2026-11-16';
const DAY_MS = 86_400_000;

async function ok(res: Promise<{ status: number; text: string; body: any }>, status?: number): Promise<any> {
  const answer = await res;
  expect(answer.status, answer.text).toBe(status ?? (answer.status === 201 ? 201 : 200));
  return answer.body.data;
}

/** Deletes through the record's own route, answers its trash entry. */
async function trashed(client: HttpClient, path: string, recordId: string): Promise<any> {
  const res = await client.delete(path);
  expect(res.status, res.text).toBe(200);
  expect(res.body.data.id).toBe(recordId);
  expectNotFound(await client.get(path));
  const entries = (await ok(client.get('/api/v1/trash?limit=100'))) as any[];
  const entry = entries.find((e) => e.recordId === recordId);
  expect(entry, JSON.stringify(entries)).toBeDefined();
  return entry;
}

async function restore(client: HttpClient, entry: any): Promise<void> {
  const res = await client.post(`/api/v1/trash/${entry.id}/restore`, {});
  expect(res.status, res.text).toBe(200);
  expect(res.body.data).toEqual({ kind: entry.kind, recordId: entry.recordId });
}

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
  await setTimezone(alice, 'UTC');
});

describe('trash', () => {
  it('a task, a card, a note, a record and a person go to the trash, out of their reads and the agenda, and come back whole', async () => {
    const [monday] = await weekDayIds(alice, WEEK);
    const task = await ok(alice.post('/api/v1/tasks', { title: 'Pay rent', timebox: 30, dayId: monday, startTime: '09:00' }));
    await ok(alice.patch(`/api/v1/tasks/${task.id}`, { status: 'done' }));
    const xp = await xpOf(alice);
    const agenda = async () =>
      ((await ok(alice.get(`/api/v1/agenda/range?start=${WEEK}T00:00:00Z&end=2026-11-23T00:00:00Z`))) as any[]).map((e) => e.sourceId);
    expect(await agenda()).toContain(task.id);

    const taskEntry = await trashed(alice, `/api/v1/tasks/${task.id}`, task.id);
    expect(taskEntry).toMatchObject({ kind: 'task', label: 'Pay rent' });
    expect(new Date(taskEntry.purgeAt).getTime() - new Date(taskEntry.deletedAt).getTime()).toBe(30 * DAY_MS);
    expect(await agenda()).not.toContain(task.id);
    expect(await xpOf(alice)).toBe(xp);
    await restore(alice, taskEntry);
    expect(await ok(alice.get(`/api/v1/tasks/${task.id}`))).toMatchObject({ title: 'Pay rent', status: 'done', dayId: monday });
    expect(await agenda()).toContain(task.id);
    expect(await xpOf(alice)).toBe(xp);

    // A card comes back at its place; the cards below it move down again.
    const project = await ok(alice.post('/api/v1/projects', { title: 'Garden' }));
    const cards: any[] = [];
    for (const title of ['Dig', 'Sow', 'Water']) cards.push(await ok(alice.post(`/api/v1/projects/${project.id}/tasks`, { title })));
    const places = async () => ((await ok(alice.get(`/api/v1/projects/${project.id}/tasks`))) as any[]).map((c) => [c.title, c.order]).sort((a, b) => a[1] - b[1]);
    expect(await places()).toEqual([['Dig', 0], ['Sow', 1], ['Water', 2]]);
    const cardEntry = await trashed(alice, `/api/v1/projects/${project.id}/tasks/${cards[1].id}`, cards[1].id);
    expect(await places()).toEqual([['Dig', 0], ['Water', 1]]);
    await restore(alice, cardEntry);
    expect(await places()).toEqual([['Dig', 0], ['Sow', 1], ['Water', 2]]);

    const tag = await ok(alice.post('/api/v1/brain/tags', { name: 'home' }));
    const note = await ok(alice.post('/api/v1/brain/notes', { title: 'Plants', content: 'basil', tagIds: [tag.id] }));
    const noteEntry = await trashed(alice, `/api/v1/brain/notes/${note.id}`, note.id);
    await restore(alice, noteEntry);
    expect(await ok(alice.get(`/api/v1/brain/notes/${note.id}`))).toMatchObject({ title: 'Plants', content: 'basil', tagIds: [tag.id] });

    const db = await ok(alice.post('/api/v1/brain/databases', { name: 'Reading', properties: [{ key: 'title', name: 'Title', type: 'text' }] }));
    const record = await ok(alice.post(`/api/v1/brain/databases/${db.id}/records`, { values: { title: 'Dune' } }));
    const recordEntry = await trashed(alice, `/api/v1/brain/databases/${db.id}/records/${record.id}`, record.id);
    await restore(alice, recordEntry);
    expect((await ok(alice.get(`/api/v1/brain/databases/${db.id}/records/${record.id}`))).values).toEqual({ title: 'Dune' });

    // A person comes back among the guests of the happening their delete took them off.
    const person = await ok(alice.post('/api/v1/people', { name: 'Carla', birthday: '1990-07-04' }));
    const lunch = await ok(
      alice.post('/api/v1/social-happenings', { dayId: monday, title: 'Lunch', startTime: `${WEEK}T11:00:00Z`, endTime: `${WEEK}T12:00:00Z`, guestIds: [person.id] }),
    );
    const guests = async () => (await ok(alice.get(`/api/v1/social-happenings/${lunch.id}`))).guestIds;
    const personEntry = await trashed(alice, `/api/v1/people/${person.id}`, person.id);
    expect(((await ok(alice.get('/api/v1/people'))) as any[]).map((p) => p.id)).not.toContain(person.id);
    expect(await guests()).toEqual([]);
    await restore(alice, personEntry);
    expect(await ok(alice.get(`/api/v1/people/${person.id}`))).toMatchObject({ name: 'Carla', birthday: '1990-07-04' });
    expect(await guests()).toEqual([person.id]);
    expect((await ok(alice.get('/api/v1/trash'))) as any[]).toEqual([]);
  });

  it('keeps balances and streaks exact through delete and restore', async () => {
    const account = await ok(alice.post('/api/v1/accounts', { name: 'Wallet', type: 'cash', balance: 100, currency: 'EUR' }));
    const spend = await ok(alice.post('/api/v1/transactions', { accountId: account.id, amount: -30.45, description: 'Books', date: '2026-11-20' }));
    const balance = async () => (await ok(alice.get(`/api/v1/accounts/${account.id}`))).balance;
    expect(await balance()).toBe(69.55);
    const spendEntry = await trashed(alice, `/api/v1/transactions/${spend.id}`, spend.id);
    expect(await balance()).toBe(100);
    expect(((await ok(alice.get('/api/v1/transactions'))) as any[]).map((t) => t.id)).not.toContain(spend.id);
    await restore(alice, spendEntry);
    expect(await balance()).toBe(69.55);
    expect(await ok(alice.get(`/api/v1/transactions/${spend.id}`))).toMatchObject({ amount: -30.45, description: 'Books' });

    const habit = await createHabit(alice, { name: 'Floss' });
    await logEntry(alice, habit.id);
    const streak = async () => (await ok(alice.get(`/api/v1/habits/${habit.id}/streak`))) as any;
    const before = await streak();
    expect(before.current).toBe(1);
    const xp = await xpOf(alice);
    const habitEntry = await trashed(alice, `/api/v1/habits/${habit.id}`, habit.id);
    await restore(alice, habitEntry);
    expect(await streak()).toEqual(before);
    expect(((await ok(alice.get(`/api/v1/habits/${habit.id}/entries`))) as any[]).length).toBe(1);
    expect(await xpOf(alice)).toBe(xp);
  });

  it('refuses a restore that would break a rule, with its rule in the envelope', async () => {
    const project = await ok(alice.post('/api/v1/projects', { title: 'Shed' }));
    const card = await ok(alice.post(`/api/v1/projects/${project.id}/tasks`, { title: 'Paint' }));
    const cardEntry = await trashed(alice, `/api/v1/projects/${project.id}/tasks/${card.id}`, card.id);
    await ok(alice.delete(`/api/v1/projects/${project.id}`));
    expectRule(await alice.post(`/api/v1/trash/${cardEntry.id}/restore`, {}), 'trash_parent_gone');

    // A day already full (200 tasks) takes no task back.
    const days = await weekDayIds(alice, '2026-12-07');
    const task = await ok(alice.post('/api/v1/tasks', { title: 'Full', timebox: 15, dayId: days[2] }));
    const filler = await ok(alice.post('/api/v1/tasks', { title: 'Filler', timebox: 15, dayId: days[2] }));
    const taskEntry = await trashed(alice, `/api/v1/tasks/${task.id}`, task.id);
    await copyRow(app, 'tasks', filler.id, 199);
    expectRule(await alice.post(`/api/v1/trash/${taskEntry.id}/restore`, {}), 'day_task_limit');
    // Still in the trash, whole.
    expect(((await ok(alice.get('/api/v1/trash?limit=100'))) as any[]).map((e) => e.id)).toContain(taskEntry.id);
  });

  it('purges after the retention with a clock passed in, freeing a file\'s stored bytes; deletes one or all for good', async () => {
    const { client } = await signUp(app.url);
    const file = await ok(upload(client, makePdf(), 'document', 'notes.pdf', 'application/pdf'));
    const blobs = async () => (await blobsOnDisk(app)).filter((path) => path.includes(file.id));
    expect((await blobs()).length).toBeGreaterThan(0);
    const fileEntry = await trashed(client, `/api/v1/files/${file.id}`, file.id);
    expect((await blobs()).length, 'the bytes stay until the purge').toBeGreaterThan(0);
    await restore(client, fileEntry);
    expect((await ok(client.get(`/api/v1/files/${file.id}`))).fileName).toBe('notes.pdf');
    const again = await trashed(client, `/api/v1/files/${file.id}`, file.id);

    expectValidation(await client.patch('/api/v1/settings', { trashRetentionDays: 0 }), 'trashRetentionDays');
    expectValidation(await client.patch('/api/v1/settings', { trashRetentionDays: 366 }), 'trashRetentionDays');
    await ok(client.patch('/api/v1/settings', { trashRetentionDays: 7 }));
    const [entry] = (await ok(client.get('/api/v1/trash'))) as any[];
    expect(new Date(entry.purgeAt).getTime() - new Date(entry.deletedAt).getTime()).toBe(7 * DAY_MS);

    const trash = new TrashService(app.server.orm.em.fork(), app.server.deps);
    const deletedAt = new Date(again.deletedAt).getTime();
    // Others' entries may be due at that clock too: purge until this one is gone, then nothing is left to do twice.
    expect(await trash.purgeChunk(new Date(deletedAt + 6 * DAY_MS))).toBe(0);
    expect((await ok(client.get('/api/v1/trash'))) as any[]).toHaveLength(1);
    while ((await trash.purgeChunk(new Date(deletedAt + 7 * DAY_MS + 1000))) > 0);
    expect((await ok(client.get('/api/v1/trash'))) as any[]).toEqual([]);
    expect(await blobs(), 'the purge frees the stored bytes').toEqual([]);
    expectNotFound(await client.post(`/api/v1/trash/${again.id}/restore`, {}));

    // Delete one for good, then empty the rest.
    const people: any[] = [];
    for (const name of ['A', 'B', 'C']) people.push(await ok(client.post('/api/v1/people', { name })));
    const entries = [];
    for (const p of people) entries.push(await trashed(client, `/api/v1/people/${p.id}`, p.id));
    expect(await ok(client.delete(`/api/v1/trash/${entries[0].id}`))).toMatchObject({ id: entries[0].id });
    expect(((await ok(client.get('/api/v1/trash?limit=2'))) as any[]).length).toBe(2);
    expect(await ok(client.delete('/api/v1/trash'))).toEqual({ deleted: 2 });
    expect((await ok(client.get('/api/v1/trash'))) as any[]).toEqual([]);
  });

  it('keeps a habit with 3,000 entries exact through delete and restore, copied by SQL; the feed hears every entry', async () => {
    const { client, id: userId } = await signUp(app.url);
    const habit = await createHabit(client, { name: 'Read' });
    const entry = await logEntry(client, habit.id);
    await copyRow(app, 'habit_entries', entry.id, 2999);
    const entries = async () =>
      (await sql(app.databaseUrl, `select count(*)::int as n, md5(coalesce(string_agg(to_jsonb(e)::text, ',' order by e.id), '')) as digest from habit_entries e where habit_id = $1`, [habit.id]))[0];
    const fed = async (kind: string) =>
      (await sql(app.databaseUrl, `select count(*)::int as n from lp_change_feed where user_id = $1 and entity = 'HabitEntry' and kind = $2`, [userId, kind]))[0].n;
    const before = await entries();
    expect(before.n).toBe(3000);
    const streak = async () => ok(client.get(`/api/v1/habits/${habit.id}/streak`));
    const streakBefore = await streak();

    const habitEntry = await trashed(client, `/api/v1/habits/${habit.id}`, habit.id);
    expect((await entries()).n).toBe(0);
    expect(await fed('deleted'), 'the first 200 through the collector, the rest by SQL: each once').toBe(3000);
    // The entry holds an outline only: the rows are in trash_rows, never one document through the service.
    const [kept] = await sql(app.databaseUrl, 'select pg_column_size(snapshot) as size, (select count(*)::int from trash_rows r where r.trash_item_id = t.id) as n from trash_items t where id = $1', [habitEntry.id]);
    expect(kept).toMatchObject({ n: 3001 });
    expect(kept.size).toBeLessThan(500);
    await restore(client, habitEntry);
    expect(await entries()).toEqual(before);
    expect(await streak()).toEqual(streakBefore);
    expect(await fed('created'), 'the logged entry, then the 3,000 restored').toBe(3001);
    // Restored: the entry and its copied rows are gone.
    expect(await sql(app.databaseUrl, 'select 1 from trash_rows where trash_item_id = $1', [habitEntry.id])).toEqual([]);
  });

  it('keeps a person on 2,001 happenings and 300 perimeter tasks exact through delete and restore, their places kept by SQL', async () => {
    const { client, id: userId } = await signUp(app.url);
    const [monday] = await weekDayIds(client, WEEK);
    const [other, person] = [await ok(client.post('/api/v1/people', { name: 'Ana' })), await ok(client.post('/api/v1/people', { name: 'Ben' }))];
    const dinner = await ok(
      client.post('/api/v1/social-happenings', { dayId: monday, title: 'Dinner', startTime: `${WEEK}T18:00:00Z`, endTime: `${WEEK}T19:00:00Z`, guestIds: [other.id, person.id] }),
    );
    // 100 copies on each of 20 other days (a day holds at most 100).
    const days = [...(await weekDayIds(client, '2026-11-23')), ...(await weekDayIds(client, '2026-11-30')), ...(await weekDayIds(client, '2026-12-07'))].slice(0, 20);
    const columns = (await sql(app.databaseUrl, `select column_name as c from information_schema.columns where table_name = 'social_happenings' and column_name not in ('id', 'day_id')`)).map((r) => `"${r.c}"`);
    await sql(
      app.databaseUrl,
      `insert into social_happenings (id, day_id, ${columns.join(', ')}) select gen_random_uuid(), d, ${columns.map((c) => `h.${c}`).join(', ')}
         from social_happenings h, unnest($2::uuid[]) d, generate_series(1, 100) where h.id = $1`,
      [dinner.id, days],
    );
    const call = await ok(client.post('/api/v1/perimeter/tasks', { title: 'Call Ben', personId: person.id }));
    await copyRow(app, 'perimeter_tasks', call.id, 299);
    const rows = async () =>
      (
        await sql(
          app.databaseUrl,
          `select (select md5(string_agg(to_jsonb(h)::text, ',' order by h.id)) from social_happenings h where h.user_id = $1) as happenings,
                  (select md5(string_agg(to_jsonb(p)::text, ',' order by p.id)) from perimeter_tasks p where p.user_id = $1) as perimeter,
                  (select count(*)::int from social_happenings h where h.guest_ids @> jsonb_build_array($2::text)) as "guestOn",
                  (select count(*)::int from perimeter_tasks p where p.person_id = $2::uuid) as linked`,
          [userId, person.id],
        )
      )[0];
    const fed = async (entity: string) =>
      (await sql(app.databaseUrl, `select count(*)::int as n from lp_change_feed where user_id = $1 and entity = $2 and kind = 'updated'`, [userId, entity]))[0].n;
    const before = await rows();
    expect(before).toMatchObject({ guestOn: 2001, linked: 300 });

    const entry = await trashed(client, `/api/v1/people/${person.id}`, person.id);
    expect(await rows()).toMatchObject({ guestOn: 0, linked: 0 });
    expect(await ok(client.get(`/api/v1/social-happenings/${dinner.id}`))).toMatchObject({ guestIds: [other.id] });
    expect([await fed('SocialHappening'), await fed('PerimeterTask')], 'each row the delete changed, once').toEqual([2001, 300]);
    // The places are trash_links rows, not ids in the entry's document.
    const [kept] = await sql(app.databaseUrl, 'select pg_column_size(snapshot) as size, (select count(*)::int from trash_links l where l.trash_item_id = t.id) as n from trash_items t where id = $1', [entry.id]);
    expect(kept).toMatchObject({ n: 2301 });
    expect(kept.size).toBeLessThan(500);
    await restore(client, entry);
    expect(await rows()).toEqual(before);
    expect([await fed('SocialHappening'), await fed('PerimeterTask')]).toEqual([4002, 600]);
    expect(await sql(app.databaseUrl, 'select 1 from trash_links where trash_item_id = $1', [entry.id])).toEqual([]);
  });

  it('a "this and following" delete keeps the later occurrences in the same entry, and its restore brings them all back as single tasks', async () => {
    const { client } = await signUp(app.url);
    const days = await weekDayIds(client, '2026-12-14');
    const first = await ok(client.post('/api/v1/tasks', { title: 'Walk', timebox: 30, dayId: days[0], recurrence: 'FREQ=DAILY' }));
    const series = async () => ((await ok(client.get(`/api/v1/tasks?seriesId=${first.id}&limit=100`))) as any[]).map((t) => t.occurrenceDate).sort();
    const all = await series();
    expect(all).toHaveLength(7);
    const [, , third] = ((await ok(client.get(`/api/v1/tasks?seriesId=${first.id}&limit=100`))) as any[]).sort((a, b) => a.occurrenceDate.localeCompare(b.occurrenceDate));
    await ok(client.delete(`/api/v1/tasks/${third.id}`, { body: { applyTo: 'following' } }));
    expect(await series()).toEqual(all.slice(0, 2));
    const entries = (await ok(client.get('/api/v1/trash'))) as any[];
    expect(entries.map((e) => [e.kind, e.recordId])).toEqual([['task', third.id]]);

    await restore(client, entries[0]);
    // The series stays ended before the date; the five occurrences are back, as single tasks, on their days.
    expect(await series()).toEqual(all.slice(0, 2));
    const week = (await ok(client.get('/api/v1/tasks?limit=100'))) as any[];
    const back = week.filter((t) => t.id !== first.id && t.title === 'Walk' && !t.seriesId);
    expect(back.map((t) => t.dayId).sort()).toEqual(days.slice(2).sort());
    expect(back.map((t) => t.id)).toContain(third.id);
    expect((await ok(client.get(`/api/v1/tasks/${first.id}`))).recurrence).toMatch(/UNTIL=20261215/);
  });

  it("answers another person's trash entry 404 like a missing one, on REST and GraphQL", async () => {
    const person = await ok(alice.post('/api/v1/people', { name: 'Private' }));
    const entry = await trashed(alice, `/api/v1/people/${person.id}`, person.id);
    expect((await ok(bob.get('/api/v1/trash'))) as any[]).toEqual([]);
    for (const id of [entry.id, MISSING_ID]) {
      expectNotFound(await bob.post(`/api/v1/trash/${id}/restore`, {}));
      expectNotFound(await bob.delete(`/api/v1/trash/${id}`));
    }
    const gql = await bob.graphql(`mutation($id: UUID!) { restoreFromTrash(trashId: $id) { recordId } }`, { id: entry.id });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const mine = await alice.graphql(`{ trash(limit: 5) { items { id kind recordId } meta { total } } }`);
    expect(mine.body.data.trash.items).toContainEqual({ id: entry.id, kind: 'person', recordId: person.id });
    await restore(alice, entry);
  });
});
