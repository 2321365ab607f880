import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { generateWeek, weekDayIds } from '../../test/support/fixtures.js';
import { eventually, liveClient, type LiveClient } from '../../test/support/live-client.js';
import { recordStatements } from '../../test/support/statement-counter.js';

const MONDAY = '2026-11-23';
/** An upper bound for an awaited event (not a sleep): generous, for a loaded 2-core machine. */
const WAIT = 15_000;
// `stepsEntries` is read by the subscription only (no toggle touches steps): one statement per read of a day.
const DAY = `subscription ($dayId: UUID!) { dayChanged(dayId: $dayId) { id stepsEntries { id } checklist { key completed } } }`;
const STEPS_READ = /from "steps_entries?"/i;
const messageOf = (error: unknown) => (error === undefined ? '' : JSON.stringify(error, Object.getOwnPropertyNames(error ?? {})));
const gym = (result: any) => result?.data?.dayChanged?.checklist?.find((i: any) => i.key === 'GYM')?.completed;

/** Issue 34.5: what one change costs a person does not grow with their sockets, nor with subscriptions it cannot concern. */
describe('live re-reads: one per person per change, only where the arguments can match, within a budget', () => {
  let app: TestApp;
  const sockets: LiveClient[] = [];
  const open = (client: HttpClient) => {
    const socket = liveClient(app.url, client.cookie);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    app = await startTestApp({ LIVE_MAX_DISTINCT_SUBSCRIPTIONS_PER_USER: '5' });
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.dispose()));
  });
  afterAll(async () => app?.close());

  it('three sockets following the same day and others following other days: a write re-reads the written day once, the others not at all', async () => {
    const { client } = await signUp(app.url);
    const days = await weekDayIds(client, MONDAY);
    const [monday, tuesday] = [days[0]!, days[1]!];
    const mondays = [];
    const others = [];
    for (const [i, socket] of [open(client), open(client), open(client)].entries()) {
      mondays.push(socket.follow(DAY, { dayId: monday }));
      // Each socket also follows a day nobody writes to (Wednesday, Thursday, Friday).
      others.push(socket.follow(DAY, { dayId: days[2 + i]! }));
    }
    await Promise.all([...mondays, ...others].map((m) => m.waitFor((r) => gym(r) === false, WAIT)));

    const recorder = recordStatements();
    try {
      // Tuesday: nobody follows it. Then Monday twice: each reaches all three Monday subscriptions.
      expect((await client.post(`/api/v1/checklist/${tuesday}/toggle/GYM`, {})).status).toBe(200);
      expect((await client.post(`/api/v1/checklist/${monday}/toggle/GYM`, {})).status).toBe(200);
      await Promise.all(mondays.map((m) => m.waitFor((r) => gym(r) === true, WAIT)));
      expect((await client.post(`/api/v1/checklist/${monday}/toggle/GYM`, {})).status).toBe(200);
      await Promise.all(mondays.map((m) => m.waitFor((r, i = m.results.indexOf(r)) => gym(r) === false && i > 0, WAIT)));
    } finally {
      recorder.stop();
    }
    const dayReads = recorder.statements.filter((s) => STEPS_READ.test(s));
    // Two Monday writes → two reads of Monday, shared by the three sockets; no read for Tuesday's write.
    expect(dayReads.length, dayReads.join('\n')).toBe(2);
  });

  it("a task moved from Monday to Tuesday reaches both days' subscriptions: a change names its day before and after", async () => {
    const { client } = await signUp(app.url);
    const [monday, tuesday] = await weekDayIds(client, MONDAY);
    const created = await client.post('/api/v1/tasks', { title: 'Call the plumber', timebox: 30, dayId: monday });
    expect(created.status).toBe(201);
    const taskId = created.body.data.id as string;
    const socket = open(client);
    const TASKS = `subscription ($dayId: UUID!) { dayChanged(dayId: $dayId) { id tasks { id } } }`;
    const has = (r: any) => r.data?.dayChanged?.tasks?.some((t: { id: string }) => t.id === taskId);
    const onMonday = socket.follow(TASKS, { dayId: monday });
    const onTuesday = socket.follow(TASKS, { dayId: tuesday });
    await onMonday.waitFor((r) => has(r) === true, WAIT).catch((e) => { throw new Error(`${e}: ${JSON.stringify(onMonday.results)} ${messageOf(onMonday.error)}`); });
    await onTuesday.waitFor((r) => has(r) === false, WAIT);
    const moved = await client.graphql(`mutation ($id: UUID!, $day: UUID) { updateTask(taskId: $id, dayId: $day) { id } }`, { id: taskId, day: tuesday });
    expect(moved.body.errors, JSON.stringify(moved.body.errors)).toBeUndefined();
    await onTuesday.waitFor((r) => has(r) === true, WAIT);
    await onMonday.waitFor((r) => has(r) === false && onMonday.results.indexOf(r) > 0, WAIT);
  });

  it('a page of tasks past the end costs one COUNT per change, no read of rows, and answers what `tasks` answers', async () => {
    const { client } = await signUp(app.url);
    const FIELDS = `(page: 3, limit: 2) { items { id title } meta { page limit total } }`;
    const page = open(client).follow(`subscription { tasksChanged${FIELDS} }`);
    const total = (r: any) => r.data?.tasksChanged?.meta?.total;
    await page.waitFor((r) => total(r) === 0, WAIT);
    const create = async (title: string) => expect((await client.post('/api/v1/tasks', { title, timebox: 10 })).status).toBe(201);
    const recorder = recordStatements();
    try {
      for (const [i, title] of ['one', 'two', 'three'].entries()) {
        await create(title);
        await page.waitFor((r) => total(r) === i + 1, WAIT);
      }
    } finally {
      recorder.stop();
    }
    const rowReads = recorder.statements.filter((s) => /^select .* from "tasks".* offset /i.test(s));
    const counts = recorder.statements.filter((s) => /^select count\(.* from "tasks"/i.test(s));
    expect(rowReads, rowReads.join('\n')).toEqual([]);
    expect(counts.length).toBeGreaterThanOrEqual(3);
    // Two more: the fifth task is on page 3, read in full, as the query answers it.
    await create('four');
    await create('five');
    const filled = await page.waitFor((r) => r.data?.tasksChanged?.items?.length === 1, WAIT);
    const fresh = await client.graphql(`query { tasks${FIELDS} }`);
    expect(filled.data.tasksChanged).toEqual(fresh.body.data.tasks);
    expect(fresh.body.data.tasks.items[0].title).toBe('five');
  });

  it('a write to another week, project or grocery list does not re-read the followed one; a write to the followed one arrives', async () => {
    const { client } = await signUp(app.url);
    const gql = async (query: string, variables: Record<string, unknown>) => {
      const res = await client.graphql(query, variables);
      expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
      return res.body.data;
    };
    const NEXT_MONDAY = '2026-11-30';
    const [thisWeek, nextWeek] = [await generateWeek(client, MONDAY), await generateWeek(client, NEXT_MONDAY)];
    const project = async (title: string) => (await gql(`mutation ($t: String!) { createProject(title: $t) { id } }`, { t: title })).createProject.id as string;
    const [followedProject, otherProject] = [await project('Followed'), await project('Other')];
    const list = async (weekId: string) => {
      const id = (await gql(`mutation ($w: UUID!) { generateGroceryList(weekId: $w) { id } }`, { w: weekId })).generateGroceryList.id as string;
      const item = (await gql(`mutation ($l: UUID!) { addGroceryItem(groceryListId: $l, name: "Milk") { id } }`, { l: id })).addGroceryItem.id as string;
      return { id, item };
    };
    const [followedList, otherList] = [await list(thisWeek.id), await list(nextWeek.id)];

    const socket = open(client);
    const week = socket.follow(`subscription ($s: LocalDate!) { weekChanged(startDate: $s) { id days { id stepsEntries { id } checklist { key completed } } } }`, { s: MONDAY });
    const board = socket.follow(`subscription ($p: UUID!) { projectBoardChanged(projectId: $p) { columns { id tasks { id title } } } }`, { p: followedProject });
    const groceries = socket.follow(`subscription ($w: UUID!) { groceryListChanged(weekId: $w) { id items { id purchased } } }`, { w: thisWeek.id });
    const gymOnMonday = (r: any) => r.data?.weekChanged?.days?.[0]?.checklist?.find((i: any) => i.key === 'GYM')?.completed;
    const cards = (r: any) => r.data?.projectBoardChanged?.columns?.[0]?.tasks?.length;
    const bought = (r: any) => r.data?.groceryListChanged?.items?.[0]?.purchased;
    await Promise.all([week.waitFor((r) => gymOnMonday(r) === false, WAIT), board.waitFor((r) => cards(r) === 0, WAIT), groceries.waitFor((r) => bought(r) === false, WAIT)]);

    const recorder = recordStatements();
    try {
      expect((await client.post(`/api/v1/checklist/${nextWeek.days[0].id}/toggle/GYM`, {})).status).toBe(200);
      await gql(`mutation ($p: UUID!) { createProjectTask(projectId: $p, title: "Elsewhere") { id } }`, { p: otherProject });
      await gql(`mutation ($l: UUID!, $i: UUID!) { updateGroceryItem(groceryListId: $l, itemId: $i, purchased: true) { id } }`, { l: otherList.id, i: otherList.item });
      // The same writes to the followed ones, each awaited: the others' ticks (had there been any) came first.
      expect((await client.post(`/api/v1/checklist/${thisWeek.days[0].id}/toggle/GYM`, {})).status).toBe(200);
      await week.waitFor((r) => gymOnMonday(r) === true, WAIT);
      await gql(`mutation ($p: UUID!) { createProjectTask(projectId: $p, title: "Here") { id } }`, { p: followedProject });
      await board.waitFor((r) => cards(r) === 1, WAIT);
      await gql(`mutation ($l: UUID!, $i: UUID!) { updateGroceryItem(groceryListId: $l, itemId: $i, purchased: true) { id } }`, { l: followedList.id, i: followedList.item });
      await groceries.waitFor((r) => bought(r) === true, WAIT);
    } finally {
      recorder.stop();
    }
    // The reads of the answers (batched loaders): one each, for the followed write only.
    const reads = (table: string, column: string) => recorder.statements.filter((s) => s.includes(`from "${table}" as t where t."${column}" = any(`));
    const counted = { week: reads('steps_entries', 'day_id').length, board: reads('project_tasks', 'column_id').length, groceryList: reads('grocery_items', 'list_id').length };
    expect(counted).toEqual({ week: 1, board: 1, groceryList: 1 });
  });

  it('counts different subscriptions per person, not per socket: past the budget a new one is refused, an identical one on another socket is not', async () => {
    const { client } = await signUp(app.url);
    const days = await weekDayIds(client, MONDAY);
    const phone = open(client);
    const laptop = open(client);
    const followed = days.slice(0, 5).map((dayId) => phone.follow(DAY, { dayId }));
    await Promise.all(followed.map((f) => f.waitFor((r) => r.data?.dayChanged !== undefined, WAIT)));
    // The same five on the laptop share the phone's reads: still five different ones.
    const same = days.slice(0, 5).map((dayId) => laptop.follow(DAY, { dayId }));
    await Promise.all(same.map((f) => f.waitFor((r) => r.data?.dayChanged !== undefined, WAIT)));
    // A sixth different one, on either socket, is refused with the budget named.
    const sixth = laptop.follow(DAY, { dayId: days[5]! });
    const refused = await sixth.waitFor(() => true, WAIT);
    expect(refused.errors?.[0]?.message).toContain('At most 5 different live subscriptions per person');
    expect(refused.errors?.[0]?.extensions?.code).toBe('RATE_LIMIT_EXCEEDED');
    await eventually(() => (sixth.completed ? true : undefined), WAIT, 'the refused subscription to end');
    // Ending one frees its place only when no socket runs it any more.
    followed[0]!.stop();
    const stillFull = phone.follow(DAY, { dayId: days[6]! });
    expect((await stillFull.waitFor(() => true, WAIT)).errors?.[0]?.extensions?.code).toBe('RATE_LIMIT_EXCEEDED');
    same[0]!.stop();
    // On the same socket as the stop, so the server has seen it first.
    const freed = laptop.follow(DAY, { dayId: days[6]! });
    const answer = await freed.waitFor(() => true, WAIT);
    expect(answer.data?.dayChanged?.id, JSON.stringify(answer)).toBe(days[6]);
  });
});
