import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient, type HttpResult } from '../../test/support/http-client.js';
import { expectNotFound, UNDO_TOKEN_SHAPE } from '../../test/support/expectations.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { todayIn } from '../core/dates.js';
import { createHabit, dayIdOn } from '../habits/habits.test-helpers.js';
import { keyHolder, type KeyClient } from '../public-api/public-api.test-helpers.js';
import { makeImage, upload } from '../files/files.test-helpers.js';

/**
 * Undo of the logs, habit writes, field updates and arrangements (docs/undo.md, issue 38 item 3): for
 * each kind, the write answers a token, the state moved, and `POST /undo` brings back exactly the state
 * before (XP and streaks included); then isolation (404) and a later change (409).
 */
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;
let days: string[];
let todayId: string;
let weekId: string;
let keyed: { client: HttpClient; api: KeyClient };
let keyedToday: string;

const tokenOf = (res: HttpResult): string | null => {
  expect(res.status, res.text).toBeLessThan(300);
  expect(res.body.errors, res.text).toBeUndefined();
  return res.headers.get('undo-token') ?? res.body.extensions?.undoToken ?? null;
};
const data = async (res: Promise<HttpResult>) => {
  const answer = await res;
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer.body.data;
};
const gql = (client: HttpClient, query: string) => client.graphql(query);

const DAY_STATE = `mood energy sleepHours notes minimumMode checklist { key completed value } waterIntakes { id volume } stepsEntries { id }
  meditationSessions { id } moodEntries { id } sleepEntries { id } cardioSessions { id } mobilitySessions { id } trainingSessions { id }
  bodyMeasurements { id } perimeterTasks { id } dinnerPlan { cooked mealTemplateId }`;

/** A day's logs and the person's XP: what a log and its undo change. */
async function dayState(client: HttpClient, dayId: string): Promise<unknown> {
  return data(gql(client, `{ day(dayId: "${dayId}") { ${DAY_STATE} } progressPhotos(dayId: "${dayId}") { items { id } } gamificationStats { xp } }`));
}

/** A habit's entries (not their ids: a deleted entry comes back under a new one), marks, streak, place and the XP. */
async function habitState(client: HttpClient, habitId: string, dayId: string): Promise<unknown> {
  return data(
    gql(
      client,
      `{ habit(habitId: "${habitId}") { archivedAt position streak { current longest } } habitEntries(habitId: "${habitId}") { items { date value note } }
        habitsOnDay(dayId: "${dayId}") { items { habitId state value mark } } habits { items { id } } gamificationStats { xp } }`,
    ),
  );
}

interface Case {
  kind: string;
  state: () => Promise<unknown>;
  write: () => Promise<HttpResult>;
  /** The client that wrote and undoes (default alice). */
  client?: () => HttpClient;
}

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
  days = await weekDayIds(alice, '2026-11-16');
  // This shared app runs on the real clock (the habit tests pin theirs: habitsTestApp).
  todayId = await dayIdOn(alice, todayIn('UTC'));
  weekId = (await data(alice.get('/api/v1/weeks/2026-11-16'))).id;
  keyed = await keyHolder(app);
  keyedToday = (await data(keyed.client.get('/api/v1/days/today'))).id;
});

async function undo(client: HttpClient, token: string | null): Promise<HttpResult> {
  expect(token).toMatch(UNDO_TOKEN_SHAPE);
  return client.post('/api/v1/undo', { token });
}

/** A record's `updatedAt` and `version` move on with the undo (it is a write): the values are what must come back. */
const settled = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'updatedAt' || key === 'version' ? undefined : v)));

async function roundTrip({ kind, state: read, write, client = () => alice }: Case): Promise<void> {
  const state = async () => settled(await read());
  const before = await state();
  const token = tokenOf(await write());
  expect(await state(), `${kind}: the write changed nothing`).not.toEqual(before);
  const undone = await undo(client(), token);
  expect(undone.status, `${kind}: ${undone.text}`).toBe(200);
  expect(undone.body.data.kind).toBe(kind);
  expect(await state(), `${kind}: not back`).toEqual(before);
}

describe('undo of logs, habit writes, updates and arrangements', () => {
  it('each app log is taken back exactly (its amount, its XP, the checklist it ticked, the day value it replaced)', async () => {
    const [mon, tue, wed, thu] = days;
    await data(gql(alice, `mutation { logMood(dayId: "${wed}", mood: 5, energy: 4) { id } }`));
    const image = (await upload(alice, await makeImage('png', 20, 20), 'image', 'me.png', 'image/png')).body.data;
    const on = (dayId: string) => () => dayState(alice, dayId);
    const cases: Case[] = [
      { kind: 'water_log', state: on(mon), write: () => gql(alice, `mutation { logWater(dayId: "${mon}", volume: 250) { id } }`) },
      { kind: 'steps_log', state: on(mon), write: () => gql(alice, `mutation { logSteps(dayId: "${mon}", steps: 4200) { id } }`) },
      { kind: 'meditation_log', state: on(tue), write: () => gql(alice, `mutation { logMeditation(dayId: "${tue}", duration: 12) { id } }`) },
      { kind: 'mood_log', state: on(wed), write: () => gql(alice, `mutation { logMood(dayId: "${wed}", mood: 8, energy: 7) { id } }`) },
      { kind: 'sleep_log', state: on(wed), write: () => gql(alice, `mutation { logSleep(dayId: "${wed}", duration: 7.5) { id } }`) },
      { kind: 'cardio_log', state: on(thu), write: () => alice.post('/api/v1/cardio/sessions', { dayId: thu, type: 'run', duration: 30 }) },
      { kind: 'mobility_log', state: on(tue), write: () => alice.post('/api/v1/mobility/sessions', { dayId: tue, focus: 'hips', duration: 15, intensity: 5 }) },
      { kind: 'body_measurement_log', state: on(mon), write: () => alice.post('/api/v1/body-composition/measurements', { dayId: mon, weight: 71.5 }) },
      { kind: 'progress_photo_log', state: on(mon), write: () => gql(alice, `mutation { createProgressPhoto(dayId: "${mon}", fileId: "${image.id}", pose: front) { id } }`) },
    ];
    for (const c of cases) await roundTrip(c);
  });

  it('each Public API log offers the token to the key owner, undone by the same inverse', async () => {
    const state = () => dayState(keyed.client, keyedToday);
    const habit = await createHabit(keyed.client, { name: 'Read' });
    const post = (path: string, body: object) => () => keyed.api.post(path, body);
    const cases: Case[] = [
      { kind: 'public_water_log', state, write: post('/water', { volume: 300 }) },
      { kind: 'public_steps_log', state, write: post('/steps', { steps: 900 }) },
      { kind: 'public_meditation_log', state, write: post('/meditation', { duration: 5 }) },
      { kind: 'public_mood_log', state, write: post('/mood', { mood: 6, energy: 6 }) },
      { kind: 'public_sleep_log', state, write: post('/sleep', { duration: 6 }) },
      { kind: 'public_cardio_log', state, write: post('/cardio', { type: 'bike', duration: 20 }) },
      { kind: 'public_workout_log', state, write: post('/workouts', { splitLabel: 'Legs' }) },
      { kind: 'public_body_metrics_log', state, write: post('/body-metrics', { weight: 80 }) },
      { kind: 'public_habit_log', state: () => habitState(keyed.client, habit.id, keyedToday), write: post(`/habits/${habit.id}/entries`, {}) },
    ];
    for (const c of cases) await roundTrip({ ...c, client: () => keyed.client });
  });

  it('habit writes: an entry logged or deleted, a mark, archive and unarchive, a reorder (streak and XP exact)', async () => {
    const habit = await createHabit(alice, { name: 'Floss', startDate: '2026-11-01' });
    const other = await createHabit(alice, { name: 'Walk', startDate: '2026-11-01' });
    const state = () => habitState(alice, habit.id, todayId);
    await roundTrip({ kind: 'habit_entry_log', state, write: () => alice.post(`/api/v1/habits/${habit.id}/entries`, { dayId: todayId }) });
    const entry = await data(alice.post(`/api/v1/habits/${habit.id}/entries`, { dayId: todayId, note: 'after lunch' }));
    await roundTrip({ kind: 'habit_entry_delete', state, write: () => alice.delete(`/api/v1/habits/entries/${entry.id}`) });
    await roundTrip({ kind: 'habit_mark', state: () => habitState(alice, habit.id, days[0]!), write: () => alice.post(`/api/v1/habits/${habit.id}/days/${days[0]}/mark`, { mark: 'SKIP' }) });
    const otherState = () => habitState(alice, other.id, todayId);
    await roundTrip({ kind: 'habit_archive', state: otherState, write: () => alice.post(`/api/v1/habits/${other.id}/archive`) });
    await data(alice.post(`/api/v1/habits/${other.id}/archive`));
    await roundTrip({ kind: 'habit_unarchive', state: otherState, write: () => alice.post(`/api/v1/habits/${other.id}/unarchive`) });
    await data(alice.post(`/api/v1/habits/${other.id}/unarchive`));
    await roundTrip({ kind: 'habit_reorder', state, write: () => alice.post('/api/v1/habits/reorder', { habitIds: [other.id, habit.id] }) });
  });

  it('field updates and arrangements go back to the previous values of what they changed', async () => {
    const [mon, tue] = days;
    const project = await data(alice.post('/api/v1/projects', { title: 'Garden' }));
    const board = () => data(alice.get(`/api/v1/projects/${project.id}/board`));
    const columns = (await board()).columns as { id: string; name: string }[];
    const card = await data(alice.post(`/api/v1/projects/${project.id}/tasks`, { title: 'Dig' }));
    const perimeter: string[] = [];
    for (const title of ['Inbox zero', 'Stretch', 'Call mum']) perimeter.push((await data(alice.post('/api/v1/perimeter/tasks', { title }))).id);
    const form = await data(alice.post('/api/v1/brain/forms', { name: 'Signup', createDatabase: { name: 'Signups' }, config: { fields: [{ key: 'name', label: 'Name', type: 'text' }] } }));
    // Published once: its slug is kept while unpublished (an undone publish keeps it too: the same link when published again).
    await data(alice.post(`/api/v1/brain/forms/${form.id}/publish`, { published: true }));
    await data(alice.post(`/api/v1/brain/forms/${form.id}/publish`, { published: false }));
    const plans = (await data(alice.post('/api/v1/dinner/generate-week', { weekId }))) as { id: string; dayId: string; isCookDay: boolean }[];
    const cookDay = plans.find((p) => p.isCookDay)!;
    const list = await data(alice.post('/api/v1/grocery/generate', { weekId }));
    const milk = await data(alice.post(`/api/v1/grocery/${list.id}/items`, { name: 'Milk' }));
    const groceries = () => data(alice.get(`/api/v1/grocery?weekId=${weekId}`));
    const cases: Case[] = [
      { kind: 'day_update', state: () => dayState(alice, mon!), write: () => alice.patch(`/api/v1/days/${mon}`, { notes: 'busy', minimumMode: true, mood: 3 }) },
      { kind: 'week_update', state: () => data(alice.get('/api/v1/weeks/2026-11-16')), write: () => alice.patch(`/api/v1/weeks/${weekId}`, { isStressWeek: true }) },
      { kind: 'day_perimeter_set', state: () => dayState(alice, tue!), write: () => alice.post(`/api/v1/perimeter/${tue}`, { taskIds: perimeter }) },
      { kind: 'settings_update', state: () => data(alice.get('/api/v1/settings')), write: () => alice.patch('/api/v1/settings', { wakeTime: '05:45', largeExpenseThreshold: 250 }) },
      {
        kind: 'notification_settings_update',
        state: () => data(alice.get('/api/v1/notifications/settings')),
        write: () => alice.patch('/api/v1/notifications/settings', { quietHoursStart: '22:00', quietHoursEnd: '07:00' }),
      },
      { kind: 'dinner_plan_update', state: () => dayState(alice, cookDay.dayId), write: () => alice.patch(`/api/v1/dinner/${cookDay.id}`, { cooked: true }) },
      { kind: 'grocery_item_add', state: groceries, write: () => alice.post(`/api/v1/grocery/${list.id}/items`, { name: 'Eggs' }) },
      { kind: 'grocery_item_update', state: groceries, write: () => alice.patch(`/api/v1/grocery/${list.id}/items/${milk.id}`, { purchased: true }) },
      { kind: 'project_task_move', state: board, write: () => alice.post(`/api/v1/projects/${project.id}/tasks/${card.id}/move`, { columnId: columns[1]!.id, order: 0 }) },
      { kind: 'board_update', state: board, write: () => alice.patch(`/api/v1/projects/${project.id}/board`, { columns: [...columns.map(({ id, name }) => ({ id, name })), { name: 'Blocked' }] }) },
      { kind: 'brain_form_publish', state: () => data(alice.get(`/api/v1/brain/forms/${form.id}`)), write: () => alice.post(`/api/v1/brain/forms/${form.id}/publish`, { published: true }) },
      {
        kind: 'brain_form_submit',
        state: () => data(alice.get(`/api/v1/brain/databases/${form.databaseId}/records`)),
        write: () => alice.post(`/api/v1/brain/forms/${form.id}/submit`, { values: { name: 'Ada' } }),
      },
    ];
    for (const c of cases) await roundTrip(c);
  });

  it("another person's token answers 404; a later change answers 409 UNDO_CONFLICT and undoes nothing", async () => {
    const [, , , , fri] = days;
    const water = tokenOf(await gql(alice, `mutation { logWater(dayId: "${fri}", volume: 100) { id } }`));
    expectNotFound(await undo(bob, water));
    const first = tokenOf(await gql(alice, `mutation { logMood(dayId: "${fri}", mood: 2, energy: 2) { id } }`));
    tokenOf(await gql(alice, `mutation { logMood(dayId: "${fri}", mood: 9, energy: 9) { id } }`));
    const conflict = await undo(alice, first);
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.body.error.code).toBe('UNDO_CONFLICT');
    const day = (await data(gql(alice, `{ day(dayId: "${fri}") { mood energy moodEntries { id } waterIntakes { id } } }`))).day;
    expect(day).toMatchObject({ mood: 9, energy: 9 });
    expect(day.moodEntries).toHaveLength(2);
    expect(day.waterIntakes).toHaveLength(1);
    expect((await undo(alice, water)).status).toBe(200); // bob's try left it usable
  });
});
