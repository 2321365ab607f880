import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { callError, callOk, connectedUser, startConnectorApp } from './connector.test-helpers.js';

/** Issue 25: the people and projects tools, called through the real OAuth-connected SDK client. */
let app: TestApp;
let alice: Awaited<ReturnType<typeof connectedUser>>;
let bob: Awaited<ReturnType<typeof connectedUser>>;

beforeAll(async () => {
  app = await startConnectorApp();
  [alice, bob] = await Promise.all([connectedUser(app), connectedUser(app)]);
});
afterAll(async () => {
  await Promise.all([alice?.client.close(), bob?.client.close()]);
  await app?.close();
});

const DAY = 86_400_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

async function events(userId: string, event?: string): Promise<{ event: string; data: any }[]> {
  const rows = await sql<{ event: string; data: any }>(app.databaseUrl, 'select event, data from event_outbox where user_id = $1 order by occurred_at, id', [userId]);
  return event ? rows.filter((r) => r.event === event) : rows;
}

describe('people', () => {
  it('people_add adds a person (a friend records friend_added); a blank name is refused', async () => {
    const { client, user } = await connectedUser(app);
    const zoe = await callOk(client, 'people_add', { name: ' Zoe ', relationshipType: 'Friend', notes: 'Climbing' });
    expect(zoe).toEqual({ id: expect.any(String), name: 'Zoe', relationshipType: 'friend', notes: 'Climbing', createdAt: expect.any(String), version: 1 });
    const colleague = await callOk(client, 'people_add', { name: 'Yann', relationshipType: 'colleague' });
    expect((await events(user.id, 'friend_added')).map((e) => e.data.friendId)).toEqual([zoe.id]);
    expect((await user.client.get(`/api/v1/people/${colleague.id}`)).body.data).toMatchObject({ name: 'Yann', relationshipType: 'colleague' });

    const blank = await callError(client, 'people_add', { name: '   ' });
    expect(blank.code).toBe('VALIDATION_ERROR');
    expect(blank.details.errors).toEqual([{ path: ['name'], message: 'name must not be blank' }]);
  });

  it('people_update changes a person by name or id (becoming a friend records friend_added); unknown, ambiguous and foreign are refused', async () => {
    const { client, user } = await connectedUser(app);
    const andreas = await callOk(client, 'people_add', { name: 'Andreas', relationshipType: 'colleague', notes: 'Team lead' });
    await callOk(client, 'people_add', { name: 'Annika' });

    const updated = await callOk(client, 'people_update', { person: 'andreas', relationshipType: 'friend', notes: null });
    expect(updated).toMatchObject({ id: andreas.id, name: 'Andreas', relationshipType: 'friend', notes: null });
    expect((await events(user.id, 'friend_added')).map((e) => e.data.friendId)).toEqual([andreas.id]);
    const renamed = await callOk(client, 'people_update', { personId: andreas.id, name: 'Andy' });
    expect(renamed).toMatchObject({ name: 'Andy', relationshipType: 'friend' });
    expect(await events(user.id, 'friend_added')).toHaveLength(1);

    const ambiguous = await callError(client, 'people_update', { person: 'an', notes: 'x' });
    expect(ambiguous.code).toBe('AMBIGUOUS_NAME');
    expect(ambiguous.details.candidates.map((c: any) => c.name).sort()).toEqual(['Andy', 'Annika']);
    const unknown = await callError(client, 'people_update', { person: 'Zed', notes: 'x' });
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.details.candidates.map((c: any) => c.name)).toEqual(['Andy', 'Annika']);
    expect((await callError(client, 'people_update', { notes: 'x' })).code).toBe('VALIDATION_ERROR');
    const long = await callError(client, 'people_update', { personId: andreas.id, name: 'x'.repeat(201) });
    expect(long.details.errors).toEqual([{ path: ['name'], message: 'name must be at most 200 characters' }]);

    expect((await callError(bob.client, 'people_update', { personId: andreas.id, notes: 'mine now' })).code).toBe('NOT_FOUND');
    expect((await user.client.get(`/api/v1/people/${andreas.id}`)).body.data.notes).toBeNull();
  });

  it('people_update with expectedVersion (docs/concurrency.md): a stale one is VERSION_CONFLICT with the current person and writes nothing; the read one writes', async () => {
    const { client, user } = await connectedUser(app);
    const eve = await callOk(client, 'people_add', { name: 'Eve', notes: 'Chess' });
    // The person changes it in the app after the assistant read version 1.
    expect((await user.client.patch(`/api/v1/people/${eve.id}`, { notes: 'Go' })).body.data.version).toBe(2);

    const stale = await callError(client, 'people_update', { personId: eve.id, notes: 'Chess again', expectedVersion: eve.version });
    expect(stale).toMatchObject({ code: 'VERSION_CONFLICT', details: { resource: 'Person', version: 2, current: { id: eve.id, notes: 'Go', version: 2 } } });
    expect((await user.client.get(`/api/v1/people/${eve.id}`)).body.data).toMatchObject({ notes: 'Go', version: 2 });

    const [found] = (await callOk(client, 'people_find', { search: 'Eve' })).people;
    expect(found).toMatchObject({ id: eve.id, version: 2 });
    const written = await callOk(client, 'people_update', { personId: eve.id, notes: 'Go and chess', expectedVersion: found.version });
    expect(written).toMatchObject({ notes: 'Go and chess', version: 3 });
    expect((await callOk(client, 'people_last_seen', { personId: eve.id })).person.version).toBe(3);

    // Another person's record stays NOT_FOUND, with or without a version.
    expect((await callError(bob.client, 'people_update', { personId: eve.id, notes: 'x', expectedVersion: 3 })).code).toBe('NOT_FOUND');
    expect((await callError(client, 'people_update', { personId: eve.id, notes: 'x', expectedVersion: 0 })).details.errors).toEqual([
      { path: ['expectedVersion'], message: 'expectedVersion must be at least 1' },
    ]);
    expect((await user.client.get(`/api/v1/people/${eve.id}`)).body.data).toMatchObject({ notes: 'Go and chess', version: 3 });
  });

  it('people_log_happening logs a happening with guests by name or id, on the day of its start; no event; unknown guests list candidates', async () => {
    const { client, user } = await connectedUser(app);
    const carla = await callOk(client, 'people_add', { name: 'Carla' });
    const dan = await callOk(client, 'people_add', { name: 'Dan' });
    const before = await events(user.id);
    const start = new Date(Date.now() - 2 * DAY);
    const lunch = await callOk(client, 'people_log_happening', { title: 'Lunch', startTime: start.toISOString(), location: 'Café', guests: ['carla', dan.id, 'Dan'] });
    expect(lunch).toEqual({
      id: expect.any(String),
      title: 'Lunch',
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 3_600_000).toISOString(),
      location: 'Café',
      dayId: expect.any(String),
      guests: [
        { id: carla.id, name: 'Carla' },
        { id: dan.id, name: 'Dan' },
      ],
    });
    const day = await sql(app.databaseUrl, 'select date::text as date from days where id = $1 and user_id = $2', [lunch.dayId, user.id]);
    expect(day[0]?.date).toBe(start.toISOString().slice(0, 10));
    expect(await events(user.id)).toEqual(before);
    const rest = await user.client.get(`/api/v1/social-happenings?personId=${carla.id}`);
    expect(rest.body.data.map((h: any) => [h.id, h.guestIds.sort()])).toEqual([[lunch.id, [carla.id, dan.id].sort()]]);

    const unknown = await callError(client, 'people_log_happening', { title: 'Drinks', startTime: at(-DAY), guests: ['Carla', 'Erin'] });
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', details: { name: 'Erin' } });
    expect(unknown.details.candidates.map((c: any) => c.name)).toEqual(['Carla', 'Dan']);
    const backwards = await callError(client, 'people_log_happening', { title: 'Drinks', startTime: at(-DAY), endTime: at(-2 * DAY) });
    expect(backwards.details.errors).toEqual([{ path: ['endTime'], message: 'endTime must be after startTime' }]);
    expect((await user.client.get('/api/v1/social-happenings')).body.data).toHaveLength(1);

    expect((await callError(bob.client, 'people_log_happening', { title: 'Crash', startTime: at(-DAY), guests: [carla.id] })).code).toBe('NOT_FOUND');
    expect((await callError(bob.client, 'people_log_happening', { title: 'Crash', startTime: at(-DAY), dayId: lunch.dayId })).code).toBe('NOT_FOUND');
  });

  it('conversation: "when did I last see Anna" — people_last_seen answers the later past happening; people_find shows it too', async () => {
    const { client } = await connectedUser(app);
    const anna = await callOk(client, 'people_add', { name: 'Anna Berg', relationshipType: 'friend' });
    await callOk(client, 'people_add', { name: 'Bea' });
    const older = await callOk(client, 'people_log_happening', { title: 'Dinner', startTime: at(-10 * DAY), endTime: at(-10 * DAY + 7_200_000), guests: ['Anna'] });
    const later = await callOk(client, 'people_log_happening', { title: 'Coffee', startTime: at(-3 * DAY), guests: ['anna berg', 'Bea'] });
    await callOk(client, 'people_log_happening', { title: 'Concert (planned)', startTime: at(3 * DAY), guests: [anna.id] });

    const seen = await callOk(client, 'people_last_seen', { person: 'Anna' });
    expect(seen.person).toEqual({ id: anna.id, name: 'Anna Berg', relationshipType: 'friend', version: 1 });
    expect(seen.lastSeen).toBe(later.startTime);
    expect(seen.happenings.map((h: any) => h.id)).toEqual([later.id, older.id]);
    expect((await callOk(client, 'people_last_seen', { personId: anna.id, limit: 1 })).happenings.map((h: any) => h.title)).toEqual(['Coffee']);

    const found = await callOk(client, 'people_find', { search: 'ann' });
    expect(found).toEqual({
      people: [{ id: anna.id, name: 'Anna Berg', relationshipType: 'friend', version: 1, lastSeen: { happeningId: later.id, title: 'Coffee', startTime: later.startTime } }],
      meta: { page: 1, limit: 20, total: 1 },
    });
    const all = await callOk(client, 'people_find', {});
    expect(all.people.map((p: any) => p.name)).toEqual(['Anna Berg', 'Bea']);
    expect((await callOk(client, 'people_find', { relationshipType: 'FRIEND' })).people.map((p: any) => p.id)).toEqual([anna.id]);

    expect((await callError(client, 'people_find', { limit: 0 })).code).toBe('VALIDATION_ERROR');
    expect((await callError(client, 'people_last_seen', { person: 'Anna', limit: 21 })).details.errors).toEqual([{ path: ['limit'], message: 'limit must not be greater than 20' }]);
    expect((await callError(bob.client, 'people_last_seen', { personId: anna.id })).code).toBe('NOT_FOUND');
    expect((await callError(bob.client, 'people_last_seen', { person: 'Anna' })).code).toBe('NOT_FOUND');
    expect((await callOk(bob.client, 'people_find', { search: 'Anna' })).people).toEqual([]);
  });
});

describe('projects', () => {
  it('projects_create makes a project with its board; bad columns and status are refused; no event', async () => {
    const { client, user } = await connectedUser(app);
    const site = await callOk(client, 'projects_create', { title: 'Website', type: 'work', columns: ['Backlog', 'Doing', 'Review', 'Done'] });
    expect(site).toMatchObject({ title: 'Website', type: 'work', status: 'active' });
    expect(site.columns.map((c: any) => [c.name, c.cardCount, c.cards])).toEqual([
      ['Backlog', 0, []],
      ['Doing', 0, []],
      ['Review', 0, []],
      ['Done', 0, []],
    ]);
    const plain = await callOk(client, 'projects_create', { title: 'Garden' });
    expect(plain.columns.map((c: any) => c.name)).toEqual(['To do', 'In progress', 'Done']);
    const board = (await user.client.get(`/api/v1/projects/${site.id}/board`)).body.data;
    expect(board.columns.map((c: any) => c.id)).toEqual(site.columns.map((c: any) => c.id));

    const empty = await callError(client, 'projects_create', { title: 'Nothing', columns: [] });
    expect(empty.details.errors).toEqual([{ path: ['columns'], message: 'a board needs at least one column' }]);
    const status = await callError(client, 'projects_create', { title: 'Nothing', status: 'paused' });
    expect(status.details.errors).toEqual([{ path: ['status'], message: 'status must be one of active, on_hold, completed, archived' }]);
    expect((await user.client.get('/api/v1/projects')).body.data.map((p: any) => p.title)).toEqual(['Website', 'Garden']);
    expect(await events(user.id)).toEqual([]);
  });

  it('projects_boards lists boards with their cards, one by title; foreign ids are NOT_FOUND', async () => {
    const { client, user } = await connectedUser(app);
    const home = await callOk(client, 'projects_create', { title: 'Home' });
    const trip = await callOk(client, 'projects_create', { title: 'Trip', status: 'on_hold' });
    const due = at(5 * DAY);
    const card = await callOk(client, 'projects_add_card', { project: 'home', title: 'Paint', dueDate: due });

    const boards = await callOk(client, 'projects_boards', {});
    expect(boards.meta).toEqual({ page: 1, limit: 10, total: 2 });
    expect(boards.projects.map((p: any) => p.title)).toEqual(['Home', 'Trip']);
    expect(boards.projects[0].columns[0]).toEqual({ id: home.columns[0].id, name: 'To do', cardCount: 1, cards: [{ id: card.id, title: 'Paint', status: 'todo', dueDate: due }] });
    expect((await callOk(client, 'projects_boards', { status: 'on_hold' })).projects.map((p: any) => p.id)).toEqual([trip.id]);
    expect((await callOk(client, 'projects_boards', { project: 'TRIP' })).projects.map((p: any) => p.id)).toEqual([trip.id]);
    expect((await callOk(client, 'projects_boards', { limit: 500 })).meta.limit).toBe(20);

    expect((await callError(client, 'projects_boards', { limit: 0 })).code).toBe('VALIDATION_ERROR');
    const unknown = await callError(client, 'projects_boards', { project: 'Garage' });
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.details.candidates.map((c: any) => c.name)).toEqual(['Home', 'Trip']);
    expect((await callError(bob.client, 'projects_boards', { projectId: home.id })).code).toBe('NOT_FOUND');
    expect((await callOk(bob.client, 'projects_boards', {})).projects.map((p: any) => p.id)).not.toContain(home.id);
    expect(await events(user.id)).toEqual([]);
  });

  it('projects_add_card puts a card last in a column named or the first; unknown columns list candidates; foreign projects are NOT_FOUND', async () => {
    const { client, user } = await connectedUser(app);
    const book = await callOk(client, 'projects_create', { title: 'Book', columns: ['Ideas', 'Writing', 'Editing', 'Done'] });
    const first = await callOk(client, 'projects_add_card', { projectId: book.id, title: 'Outline' });
    expect(first).toMatchObject({ projectId: book.id, column: 'Ideas', columnId: book.columns[0].id, order: 0, status: 'todo', dueDate: null });
    const edit = await callOk(client, 'projects_add_card', { project: 'book', column: 'editing', title: 'Chapter 1', description: 'Draft done' });
    expect(edit).toMatchObject({ column: 'Editing', columnId: book.columns[2].id, order: 0, status: 'doing' });
    const done = await callOk(client, 'projects_add_card', { projectId: book.id, columnId: book.columns[3].id, title: 'Title' });
    expect(done).toMatchObject({ column: 'Done', status: 'done' });
    const rest = (await user.client.get(`/api/v1/projects/${book.id}/tasks/${edit.id}`)).body.data;
    expect(rest).toMatchObject({ columnId: book.columns[2].id, status: 'doing', description: 'Draft done', order: 0 });

    const unknown = await callError(client, 'projects_add_card', { projectId: book.id, column: 'Shipped', title: 'X' });
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', details: { name: 'Shipped' } });
    expect(unknown.details.candidates.map((c: any) => c.name)).toEqual(['Ideas', 'Writing', 'Editing', 'Done']);
    expect((await callError(client, 'projects_add_card', { projectId: book.id, title: ' ' })).details.errors).toEqual([{ path: ['title'], message: 'title must not be blank' }]);
    expect((await callError(bob.client, 'projects_add_card', { projectId: book.id, title: 'Mine' })).code).toBe('NOT_FOUND');
    expect((await user.client.get(`/api/v1/projects/${book.id}/tasks`)).body.data).toHaveLength(3);
    expect(await events(user.id)).toEqual([]);
  });

  it('conversation: "move the launch card to Done" — by names; REST shows it in Done; no event is recorded', async () => {
    const { client, user } = await connectedUser(app);
    const product = await callOk(client, 'projects_create', { title: 'Product', columns: ['Backlog', 'Doing', 'Done'] });
    await callOk(client, 'projects_create', { title: 'Other' });
    await callOk(client, 'projects_add_card', { project: 'Product', title: 'Docs' });
    const launch = await callOk(client, 'projects_add_card', { project: 'Product', column: 'Doing', title: 'Launch' });
    expect(launch).toMatchObject({ column: 'Doing', status: 'doing' });

    const moved = await callOk(client, 'projects_move_card', { task: 'launch', column: 'Done' });
    expect(moved).toEqual({
      id: launch.id,
      title: 'Launch',
      projectId: product.id,
      columnId: product.columns[2].id,
      column: 'Done',
      order: 0,
      status: 'done',
      dueDate: null,
      fromColumn: 'Doing',
    });
    const board = (await user.client.get(`/api/v1/projects/${product.id}/board`)).body.data;
    expect(board.columns.map((c: any) => [c.name, c.tasks.map((t: any) => [t.title, t.status])])).toEqual([
      ['Backlog', [['Docs', 'todo']]],
      ['Doing', []],
      ['Done', [['Launch', 'done']]],
    ]);
    // Moving a project card records no event in the app either (only tasks, training, … do).
    expect(await events(user.id)).toEqual([]);

    // Back to the front of Backlog, by id and column id.
    const back = await callOk(client, 'projects_move_card', { taskId: launch.id, columnId: product.columns[0].id, order: 0 });
    expect(back).toMatchObject({ column: 'Backlog', order: 0, status: 'todo', fromColumn: 'Done' });
    expect((await user.client.get(`/api/v1/projects/${product.id}/tasks/${launch.id}`)).body.data).toMatchObject({ columnId: product.columns[0].id, order: 0 });
  });

  it('projects_move_card: the column limit refuses as the app does; bad order, unknown card and foreign ids are refused', async () => {
    const { client, user } = await connectedUser(app);
    const big = await callOk(client, 'projects_create', { title: 'Big', columns: ['Todo', 'Full'] });
    const card = await callOk(client, 'projects_add_card', { projectId: big.id, title: 'One more' });
    await sql(
      app.databaseUrl,
      `insert into project_tasks (id, created_at, updated_at, user_id, project_id, column_id, position, title, status, category_ids, tag_ids)
       select gen_random_uuid(), now(), now(), $1, $2, $3, g - 1, 'Filler', 'done', '{}', '{}' from generate_series(1, 500) g`,
      [user.id, big.id, big.columns[1].id],
    );
    const full = await callError(client, 'projects_move_card', { taskId: card.id, column: 'Full' });
    expect(full).toMatchObject({ code: 'VALIDATION_ERROR', message: 'A board column can hold at most 500 tasks', details: { rule: 'column_task_limit' } });
    const rest = await user.client.post(`/api/v1/projects/${big.id}/tasks/${card.id}/move`, { columnId: big.columns[1].id, order: 0 });
    expect(rest.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { rule: 'column_task_limit' } });
    expect((await user.client.get(`/api/v1/projects/${big.id}/tasks/${card.id}`)).body.data.columnId).toBe(big.columns[0].id);
    const addFull = await callError(client, 'projects_add_card', { projectId: big.id, column: 'Full', title: 'Too many' });
    expect(addFull.details.rule).toBe('column_task_limit');
    expect((await user.client.get(`/api/v1/projects/${big.id}/board`)).body.data.columns[0].tasks.map((t: any) => t.title)).toEqual(['One more']);

    expect((await callError(client, 'projects_move_card', { taskId: card.id, column: 'Todo', order: -1 })).details.errors).toEqual([
      { path: ['order'], message: 'order must not be negative' },
    ]);
    expect((await callError(client, 'projects_move_card', { taskId: card.id })).code).toBe('VALIDATION_ERROR');
    const unknown = await callError(client, 'projects_move_card', { task: 'Launch', column: 'Todo' });
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.details.candidates.map((c: any) => c.id)).toContain(card.id);
    expect((await callError(bob.client, 'projects_move_card', { taskId: card.id, column: 'Full' })).code).toBe('NOT_FOUND');
    const bobs = await callOk(bob.client, 'projects_create', { title: 'Bob board' });
    const bobCard = await callOk(bob.client, 'projects_add_card', { projectId: bobs.id, title: 'Bob card' });
    expect((await callError(bob.client, 'projects_move_card', { taskId: bobCard.id, columnId: big.columns[0].id })).code).toBe('NOT_FOUND');
  });

  it('projects_deadlines answers deadlines and card due dates in the next days (default 14), soonest first', async () => {
    const { client, user } = await connectedUser(app);
    const tax = await callOk(client, 'projects_create', { title: 'Taxes' });
    const post = async (body: Record<string, unknown>) => (await user.client.post('/api/v1/deadlines', body)).body.data;
    const soon = await post({ title: 'File return', dueDate: at(3 * DAY), projectId: tax.id, priority: 'high' });
    const later = await post({ title: 'Renew passport', dueDate: at(30 * DAY) });
    await post({ title: 'Already done', dueDate: at(2 * DAY), status: 'done' });
    await post({ title: 'Past', dueDate: at(-2 * DAY) });
    const receipts = await callOk(client, 'projects_add_card', { projectId: tax.id, title: 'Collect receipts', dueDate: at(5 * DAY) });
    await callOk(client, 'projects_add_card', { projectId: tax.id, title: 'Archive', dueDate: at(20 * DAY) });
    await callOk(client, 'projects_add_card', { projectId: tax.id, title: 'Finished', dueDate: at(DAY), column: 'Done' });

    const twoWeeks = await callOk(client, 'projects_deadlines', {});
    expect(new Date(twoWeeks.until).getTime() - new Date(twoWeeks.from).getTime()).toBe(14 * DAY);
    expect(twoWeeks.deadlines).toEqual([{ id: soon.id, title: 'File return', dueDate: soon.dueDate, priority: 'high', status: 'pending', projectId: tax.id, project: 'Taxes' }]);
    expect(twoWeeks.cards).toEqual([{ id: receipts.id, title: 'Collect receipts', dueDate: receipts.dueDate, status: 'todo', projectId: tax.id, project: 'Taxes' }]);
    const month = await callOk(client, 'projects_deadlines', { days: 31 });
    expect(month.deadlines.map((d: any) => [d.title, d.project])).toEqual([
      ['File return', 'Taxes'],
      ['Renew passport', null],
    ]);
    expect(month.deadlines[1].id).toBe(later.id);
    expect(month.cards.map((c: any) => c.title)).toEqual(['Collect receipts', 'Archive']);
    expect((await callOk(client, 'projects_deadlines', { days: 31, project: 'taxes' })).deadlines.map((d: any) => d.id)).toEqual([soon.id]);

    expect((await callError(client, 'projects_deadlines', { days: 0 })).details.errors).toEqual([{ path: ['days'], message: 'days must not be less than 1' }]);
    expect((await callError(bob.client, 'projects_deadlines', { projectId: tax.id })).code).toBe('NOT_FOUND');
    expect(await callOk(bob.client, 'projects_deadlines', { days: 365 })).toMatchObject({ deadlines: [], cards: [] });
  });
});
