import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { weekDayIds } from '../../test/support/fixtures.js';
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
