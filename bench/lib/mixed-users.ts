import pg from 'pg';
import { round } from './report.js';
import { inBatches, seedHistoryUser, type MixedUser } from './mixed-operations.js';

/*
 * The `mixed` population (issue 18), shared by the `mixed` and `scale-out` scenarios: a template user made
 * through the API, copied by SQL, every copy signed in.
 */

/** Issue 18's population: 200 users (`BENCH_MIXED_USERS`) with a month of history each. */
export const MIXED_USERS = Number(process.env.BENCH_MIXED_USERS ?? 200);
export const MIXED_HISTORY_DAYS = 30;

/** Rows that belong to a session or a secret are not copied to the other users (nor the event log). */
const NOT_CLONED = new Set(['users', 'login_sessions', 'api_keys', 'auth_tokens', 'event_outbox', 'webhook_endpoints', 'webhook_deliveries']);

/**
 * Copies the template user's rows (every table with a user_id, and the day/perimeter links) to `count`
 * new users in a few statements: each new user gets the template's history with ids remapped
 * (md5(old id, new user)), so relations between the copied rows hold. Foreign-key triggers are off
 * during the copy (session_replication_role), which is why the ids must be consistent by construction.
 */
export async function cloneUsers(databaseUrl: string, templateId: string, count: number): Promise<string[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('begin');
    await db.query(`set local session_replication_role = replica`);
    await db.query(`create temp table clone_users on commit drop as select n, gen_random_uuid() as new_id from generate_series(1, $1::int) as n`, [count]);
    const { rows: columns } = await db.query<{ table_name: string; column_name: string; udt_name: string }>(
      `select c.table_name, c.column_name, c.udt_name from information_schema.columns c
         join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema and t.table_type = 'BASE TABLE'
        where c.table_schema = 'public' and c.is_generated = 'NEVER' order by c.table_name, c.ordinal_position`,
    );
    const tables = new Map<string, { name: string; uuid: boolean }[]>();
    for (const c of columns) {
      if (!tables.has(c.table_name)) tables.set(c.table_name, []);
      tables.get(c.table_name)!.push({ name: c.column_name, uuid: c.udt_name === 'uuid' });
    }
    const owned = [...tables].filter(([name, cols]) => !NOT_CLONED.has(name) && cols.some((c) => c.name === 'user_id') && cols.some((c) => c.name === 'id'));
    await db.query(
      `create temp table clone_ids on commit drop as ${owned.map(([name]) => `select id from "${name}" where user_id = $1`).join(' union all ')}`,
      [templateId],
    );
    await db.query(`create index on clone_ids (id)`);
    const remap = (col: string) =>
      `case when t."${col}" = $1 then c.new_id when exists (select 1 from clone_ids i where i.id = t."${col}") then md5(t."${col}"::text || c.new_id::text)::uuid else t."${col}" end`;
    const copy = async (table: string, where: string) => {
      const cols = tables.get(table)!;
      const list = cols.map((c) => `"${c.name}"`).join(', ');
      const values = cols.map((c) => (c.uuid ? remap(c.name) : `t."${c.name}"`)).join(', ');
      await db.query(`insert into "${table}" (${list}) select ${values} from "${table}" t cross join clone_users c where ${where}`, [templateId]);
    };
    // The users themselves: a new id and address each, the template's password.
    const userCols = tables.get('users')!.map((c) => c.name);
    await db.query(
      `insert into users (${userCols.map((c) => `"${c}"`).join(', ')})
       select ${userCols.map((c) => (c === 'id' ? 'c.new_id' : c === 'email' ? `'mixed-' || c.n || '-' || u.email` : `u."${c}"`)).join(', ')}
         from users u cross join clone_users c where u.id = $1`,
      [templateId],
    );
    for (const [name] of owned) await copy(name, 't.user_id = $1');
    // Link tables without user_id whose rows hang off copied rows (a day's perimeter tasks).
    if (tables.has('day_perimeter_tasks')) await copy('day_perimeter_tasks', 'exists (select 1 from clone_ids i where i.id = t.day_id) and $1::uuid is not null');
    const { rows } = await db.query<{ email: string }>(`select 'mixed-' || c.n || '-' || u.email as email from users u cross join clone_users c where u.id = $1 order by c.n`, [templateId]);
    await db.query('commit');
    return rows.map((r) => r.email);
  } catch (error) {
    await db.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await db.end();
  }
}

/** A signed-in clone: its session, today, today's tasks and an exercise of its catalog. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<MixedUser> {
  const login = await fetch(`${baseUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (login.status !== 200) throw new Error(`login of ${email} answered ${login.status}: ${await login.text()}`);
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('lp_session='));
  if (!cookie) throw new Error(`login of ${email} set no session cookie`);
  const get = async (path: string) => {
    const res = await fetch(baseUrl + path, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return ((await res.json()) as any).data;
  };
  const today = await get('/api/v1/days/today');
  const tasks = await get(`/api/v1/tasks?dayId=${today.id}&limit=50`);
  const exercises = await get('/api/v1/exercises?limit=1');
  const monday = new Date(`${today.date}T00:00:00Z`);
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return { cookie, todayId: today.id, weekStart: monday.toISOString().slice(0, 10), taskIds: tasks.map((t: { id: string }) => t.id), exerciseId: exercises[0].id };
}

/**
 * `count` users with `historyDays` of history each, signed in through `baseUrl` (their sessions are that
 * instance's to begin with; every instance on the database accepts them).
 */
export async function seedMixedUsers(baseUrl: string, databaseUrl: string, count: number, historyDays: number, log: (line: string) => void): Promise<MixedUser[]> {
  let t = performance.now();
  const template = await seedHistoryUser(baseUrl, historyDays, `template-${Date.now()}@example.com`);
  log(`template user seeded through the API (${historyDays} days of history) in ${round((performance.now() - t) / 1000, 1)} s`);
  t = performance.now();
  const emails = await cloneUsers(databaseUrl, template.id, count - 1);
  log(`copied to ${emails.length} more users with SQL in ${round((performance.now() - t) / 1000, 1)} s`);
  t = performance.now();
  const users: MixedUser[] = [template.user];
  await inBatches(emails, 8, async (email) => void users.push(await signIn(baseUrl, email, template.password)));
  log(`${users.length} users signed in in ${round((performance.now() - t) / 1000, 1)} s`);
  return users;
}
