/**
 * The week-read baseline: what `GET /api/v1/weeks/:startDate` costs with nothing but `node:http`, `pg`
 * and a handful of hand-written queries. It checks the session the way the service does (the cookie's
 * JWT, then the live `login_sessions` row and its user) and answers the same JSON as the service: the
 * spec's week shape, each day with its checklist items, perimeter tasks and tasks (with category).
 * Started by bench/scenarios/week-read.ts as its own process; not part of the service.
 *
 * Env: DATABASE_URL, JWT_SECRET, PORT, HOST.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import pg from 'pg';

pg.types.setTypeParser(1082, (value: string) => value); // date → 'YYYY-MM-DD', as LocalDate

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const key = new TextEncoder().encode(process.env.JWT_SECRET);

const NORMAL = ['MAKE_BED', 'WATER', 'GYM', 'MOBILITY', 'CARDIO', 'COOK', 'READING', 'MEDITATION', 'JOURNAL', 'PERIMETER'];
const MINIMUM = ['MAKE_BED', 'WATER', 'PERIMETER'];
const ORDER = [...NORMAL, 'WEIGHT_LOG'];

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'api-version': 'v1' });
  res.end(text);
}

function fail(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, { ok: false, error: { code, message } });
}

function sessionCookie(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === 'lp_session') return decodeURIComponent(value.join('='));
  }
  return undefined;
}

async function authenticate(req: IncomingMessage): Promise<string | null> {
  const token = sessionCookie(req);
  if (!token) return null;
  let sub: unknown;
  let sid: unknown;
  try {
    ({ payload: { sub, sid } } = await jwtVerify(token, key, { algorithms: ['HS256'] }));
  } catch {
    return null;
  }
  if (typeof sub !== 'string' || typeof sid !== 'string') return null;
  const { rows } = await pool.query(
    `SELECT u.id FROM login_sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1 AND s.user_id = $2 AND s.expires_at > now()`,
    [sid, sub],
  );
  return rows[0]?.id ?? null;
}

function group<T extends { day_id: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.day_id);
    if (list) list.push(row);
    else map.set(row.day_id, [row]);
  }
  return map;
}

async function readWeek(userId: string, startDate: string) {
  const week = (
    await pool.query(`SELECT id, start_date, end_date, is_stress_week FROM weeks WHERE user_id = $1 AND start_date = $2`, [
      userId,
      startDate,
    ])
  ).rows[0];
  if (!week) return null;
  const days = (
    await pool.query(
      `SELECT id, date, notes, minimum_mode, mood, energy, sleep_hours, completed_at FROM days WHERE week_id = $1 ORDER BY date`,
      [week.id],
    )
  ).rows;
  const dayIds = days.map((d) => d.id);
  const [checklist, perimeter, tasks] = await Promise.all([
    pool.query(`SELECT id, day_id, key, completed, value, completed_at FROM checklist_items WHERE day_id = ANY($1)`, [dayIds]),
    pool.query(
      `SELECT l.day_id, p.id, p.title, p.person_id
         FROM day_perimeter_tasks l JOIN perimeter_tasks p ON p.id = l.perimeter_task_id
        WHERE l.day_id = ANY($1) ORDER BY l.position`,
      [dayIds],
    ),
    pool.query(
      `SELECT t.id, t.title, t.description, t.timebox, t.status, t.next_step, t.category_id, t.day_id, t.completed_at, t.deferred_at,
              t.start_time, t.recurrence,
              t.series_id, t.occurrence_date, t.recurrence_exceptions, c.name AS c_name, c.color AS c_color
         FROM tasks t LEFT JOIN task_categories c ON c.id = t.category_id
        WHERE t.day_id = ANY($1) ORDER BY t.created_at, t.id`,
      [dayIds],
    ),
  ]);
  const checklistByDay = group(checklist.rows);
  const perimeterByDay = group(perimeter.rows);
  const tasksByDay = group(tasks.rows);

  return {
    id: week.id,
    startDate: week.start_date,
    endDate: week.end_date,
    isStressWeek: week.is_stress_week as boolean,
    days: days.map((d) => {
      const required = d.minimum_mode ? MINIMUM : NORMAL;
      return {
        id: d.id,
        date: d.date,
        notes: d.notes,
        minimumMode: d.minimum_mode,
        mood: d.mood,
        energy: d.energy,
        sleepHours: d.sleep_hours,
        completedAt: d.completed_at,
        completed: !!d.completed_at,
        checklist: (checklistByDay.get(d.id) ?? [])
          .sort((a, b) => ORDER.indexOf(a.key) - ORDER.indexOf(b.key))
          .map((i) => ({
            id: i.id,
            key: i.key,
            completed: i.completed,
            value: i.value,
            completedAt: i.completed_at,
            required: required.includes(i.key),
            bookId: i.key === 'READING' && typeof i.value === 'string' ? i.value : null,
          })),
        perimeterTasks: (perimeterByDay.get(d.id) ?? []).map((p) => ({
          id: p.id,
          title: p.title,
          personId: p.person_id,
        })),
        tasks: (tasksByDay.get(d.id) ?? []).map((t) => ({
          id: t.id,
          title: t.title,
          description: t.description,
          timebox: t.timebox,
          status: t.status,
          nextStep: t.next_step,
          categoryId: t.category_id,
          dayId: t.day_id,
          completedAt: t.completed_at,
          deferredAt: t.deferred_at,
          startTime: t.start_time,
          recurrence: t.recurrence,
          seriesId: t.series_id,
          occurrenceDate: t.occurrence_date,
          recurrenceExceptions: t.recurrence_exceptions,
          category: t.category_id ? { id: t.category_id, name: t.c_name, color: t.c_color } : null,
        })),
      };
    }),
  };
}

const WEEK_PATH = /^\/api\/v1\/weeks\/(\d{4}-\d{2}-\d{2})\/?$/;

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/healthz') return send(res, 200, { status: 'ok' });
  const match = req.method === 'GET' ? WEEK_PATH.exec(path) : null;
  if (!match) return fail(res, 404, 'NOT_FOUND', `No route ${req.method} ${path}`);
  void (async () => {
    const userId = await authenticate(req);
    if (!userId) return fail(res, 401, 'UNAUTHORIZED', 'Authentication required');
    const week = await readWeek(userId, match[1]!);
    if (!week) return fail(res, 404, 'NOT_FOUND', 'Week not found');
    send(res, 200, { ok: true, data: week });
  })().catch((error) => {
    console.error(error);
    if (!res.headersSent) fail(res, 500, 'INTERNAL_ERROR', 'Internal server error');
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const address = server.address();
  console.log(`baseline listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : '?'}`);
});

const stop = () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
