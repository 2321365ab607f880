import { HttpClient, signUp } from '../../test/support/http-client.js';

/*
 * The operations of the `mixed` scenario (issue 18), shared with its statement-count test
 * (test/perf/mixed-operations.test.ts): what people do with the app and their devices, through REST and
 * GraphQL together. Adding one = one entry in MIXED_OPERATIONS (its weight sets how often it runs).
 */

/** What an operation needs to know of its user (ids made by seeding). */
export interface MixedUser {
  /** `lp_session=…` */
  cookie: string;
  todayId: string;
  /** Monday of the current week. */
  weekStart: string;
  /** Tasks on today. */
  taskIds: string[];
  exerciseId: string;
}

export interface MixedRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: unknown;
}

export interface MixedOperation {
  name: string;
  kind: 'read' | 'write';
  surface: 'REST' | 'GraphQL';
  /** Relative frequency (the weights add up to 100). */
  weight: number;
  request(user: MixedUser, n: number): MixedRequest;
}

const graphql = (query: string, variables: Record<string, unknown>): MixedRequest => ({ method: 'POST', path: '/graphql', body: { query, variables } });

const DAY_QUERY = `query($id: UUID!) { day(dayId: $id) {
  id date notes mood energy minimumMode completed requiredChecklist
  checklist { key completed value }
  tasks { id title status }
  waterIntakes { id volume time }
  moodEntries { id mood energy }
  trainingSessions { id split }
} }`;

const TASK_STATUSES = ['todo', 'doing', 'done'] as const;

/** About 70% reads and 30% writes. */
export const MIXED_OPERATIONS: MixedOperation[] = [
  { name: 'today', kind: 'read', surface: 'REST', weight: 15, request: () => ({ method: 'GET', path: '/api/v1/days/today' }) },
  { name: 'week', kind: 'read', surface: 'REST', weight: 15, request: (u) => ({ method: 'GET', path: `/api/v1/weeks/${u.weekStart}` }) },
  {
    name: 'agenda week',
    kind: 'read',
    surface: 'REST',
    weight: 10,
    request: (u) => ({ method: 'GET', path: `/api/v1/agenda/range?start=${u.weekStart}&end=${addDays(u.weekStart, 7)}` }),
  },
  { name: 'day', kind: 'read', surface: 'GraphQL', weight: 15, request: (u) => graphql(DAY_QUERY, { id: u.todayId }) },
  { name: 'task list', kind: 'read', surface: 'REST', weight: 15, request: (u) => ({ method: 'GET', path: `/api/v1/tasks?dayId=${u.todayId}` }) },
  {
    name: 'checklist toggle',
    kind: 'write',
    surface: 'REST',
    weight: 8,
    request: (u) => ({ method: 'POST', path: `/api/v1/checklist/${u.todayId}/toggle/MAKE_BED` }),
  },
  {
    name: 'task status',
    kind: 'write',
    surface: 'GraphQL',
    weight: 8,
    request: (u, n) =>
      graphql('mutation($id: UUID!, $s: TaskStatus!) { updateTask(taskId: $id, status: $s) { id status } }', {
        id: u.taskIds[n % u.taskIds.length],
        s: TASK_STATUSES[n % TASK_STATUSES.length],
      }),
  },
  {
    name: 'water',
    kind: 'write',
    surface: 'GraphQL',
    weight: 7,
    request: (u) => graphql('mutation($d: UUID!) { logWater(dayId: $d, volume: 250) { id volume } }', { d: u.todayId }),
  },
  {
    name: 'mood',
    kind: 'write',
    surface: 'GraphQL',
    weight: 4,
    request: (u, n) => graphql('mutation($d: UUID!, $m: Int!) { logMood(dayId: $d, mood: $m, energy: 6) { id mood } }', { d: u.todayId, m: 1 + (n % 10) }),
  },
  {
    name: 'training session',
    kind: 'write',
    surface: 'REST',
    weight: 3,
    request: (u) => ({
      method: 'POST',
      path: '/api/v1/training/sessions',
      body: { dayId: u.todayId, split: 'Push', exercises: [{ exerciseId: u.exerciseId, sets: [{ reps: 5, load: 80 }, { reps: 5, load: 82.5 }] }] },
    }),
  },
];

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function mondayOf(date: string): string {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((day + 6) % 7));
}

/**
 * One seeding request; a connection reset (a kept-alive socket the busy server closed as it was
 * reused) is tried once more, which at worst seeds one more row.
 */
async function ok(send: () => Promise<{ status: number; text: string; body: any }>, what: string): Promise<any> {
  const r = await send().catch((error: unknown) => {
    if ((error as { cause?: { code?: string } })?.cause?.code !== 'ECONNRESET') throw error;
    return send();
  });
  if (r.status >= 300 || r.body?.errors) throw new Error(`${what} answered ${r.status}: ${r.text.slice(0, 300)}`);
  return r.body;
}

/** Runs `work` over `items`, `concurrency` at a time. */
export async function inBatches<T>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

/**
 * A user with `days` days of history before today (0: today only), made through the API: on every day
 * 3 tasks (one done), two checklist items ticked, two water intakes, a mood entry, a journal answer, a
 * transaction; a training session every other day. Today gets 3 tasks and a training session too.
 */
export async function seedHistoryUser(baseUrl: string, days: number, email?: string): Promise<{ client: HttpClient; id: string; email: string; password: string; user: MixedUser }> {
  const account = await signUp(baseUrl, email);
  const { client } = account;
  const today = (await ok(() => client.get('/api/v1/days/today'), 'today')).data;
  const weekStart = mondayOf(today.date);
  const exerciseId: string = (await ok(() => client.get('/api/v1/exercises?limit=1'), 'exercises')).data[0].id;
  const questionId: string | undefined = (await ok(() => client.get('/api/v1/journal/questions?limit=1'), 'journal questions')).data[0]?.id;
  const financeAccount = (await ok(() => client.post('/api/v1/accounts', { name: 'Checking', type: 'checking', balance: 1000, currency: 'EUR' }), 'account')).data;

  const dayIds = new Map<string, string>([[today.date, today.id]]);
  const mondays = new Set<string>();
  for (let i = 1; i <= days; i++) mondays.add(mondayOf(addDays(today.date, -i)));
  for (const monday of mondays) {
    const week = (await ok(() => client.post('/api/v1/weeks/generate', { startDate: monday }), 'week')).data;
    for (const day of week.days) dayIds.set(day.date, day.id);
  }
  const historyDates = Array.from({ length: days }, (_, i) => addDays(today.date, -(i + 1)));
  const taskIds: string[] = [];
  const perDay = async (date: string, index: number, isToday: boolean) => {
    const dayId = dayIds.get(date)!;
    for (let t = 0; t < 3; t++) {
      const task = (await ok(() => client.post('/api/v1/tasks', { title: `Task ${date} ${t}`, timebox: 30, dayId }), 'task')).data;
      if (isToday) taskIds.push(task.id);
      else if (t === 0) await ok(() => client.patch(`/api/v1/tasks/${task.id}`, { status: 'done' }), 'task status');
    }
    if (!isToday) {
      await ok(() => client.post(`/api/v1/checklist/${dayId}/toggle/WATER`, { value: 2000 }), 'toggle');
      await ok(() => client.post(`/api/v1/checklist/${dayId}/toggle/MAKE_BED`), 'toggle');
      for (let w = 0; w < 2; w++) await ok(() => client.graphql('mutation($d: UUID!) { logWater(dayId: $d, volume: 500) { id } }', { d: dayId }), 'water');
      await ok(() => client.graphql('mutation($d: UUID!) { logMood(dayId: $d, mood: 7, energy: 6) { id } }', { d: dayId }), 'mood');
      if (questionId) await ok(() => client.post('/api/v1/journal/entries', { dayId, questionId, answer: `Answer of ${date}` }), 'journal');
      await ok(() => client.post('/api/v1/transactions', { accountId: financeAccount.id, amount: -12.5, description: 'Lunch', category: 'food', date }), 'transaction');
    }
    if (isToday || index % 2 === 0) {
      await ok(
        () => client.post('/api/v1/training/sessions', { dayId, split: 'Pull', exercises: [{ exerciseId, sets: [{ reps: 8, load: 60 }, { reps: 8, load: 60 }] }] }),
        'training',
      );
    }
  };
  await perDay(today.date, 0, true);
  await inBatches(historyDates, 4, (date, index) => perDay(date, index, false));
  return { ...account, user: { cookie: client.cookie!, todayId: today.id, weekStart, taskIds, exerciseId } };
}

/** Sends one operation's request; resolves with the HTTP status (and throws on a GraphQL error). */
export async function sendOperation(baseUrl: string, user: MixedUser, op: MixedOperation, n: number): Promise<{ status: number; text: string }> {
  const req = op.request(user, n);
  const res = await fetch(baseUrl + req.path, {
    method: req.method,
    headers: { cookie: user.cookie, ...(req.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
  });
  const text = await res.text();
  if (res.ok && req.path === '/graphql' && JSON.parse(text).errors) return { status: 500, text };
  return { status: res.status, text };
}
