/**
 * The public-water baseline: what `POST /api/public/v1/water` costs with nothing but `node:http` and
 * `pg`. It checks the API key the way the service does (SHA-256 of the bearer key, one indexed lookup
 * joined with the owner's plan, revoked/expired/plan checks), finds the owner's today (UTC here: the
 * bench user keeps the default time zone) and inserts the intake. No limiter, no event, no validation
 * beyond a positive volume. Started by bench/scenarios/public-water.ts as its own process.
 *
 * Env: DATABASE_URL, PORT, HOST.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const KEY = /^Bearer (svc_[A-Za-z0-9_-]{43})$/;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'api-version': 'v1' });
  res.end(text);
}

function fail(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, { ok: false, error: { code, message } });
}

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

async function authenticate(req: IncomingMessage): Promise<string | null> {
  const match = KEY.exec(req.headers.authorization ?? '');
  if (!match) return null;
  const hash = createHash('sha256').update(match[1]!).digest('hex');
  const { rows } = await pool.query(
    `SELECT k.user_id, k.revoked, k.expires_at, u.plan, u.plan_expires_at
       FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = $1`,
    [hash],
  );
  const row = rows[0];
  if (!row || row.revoked) return null;
  const now = Date.now();
  if (row.expires_at && row.expires_at.getTime() <= now) return null;
  if (row.plan !== 'pro' || (row.plan_expires_at && row.plan_expires_at.getTime() <= now)) return null;
  return row.user_id;
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/healthz') return send(res, 200, { status: 'ok' });
  if (req.method !== 'POST' || path !== '/api/public/v1/water') return fail(res, 404, 'NOT_FOUND', `No route ${req.method} ${path}`);
  void (async () => {
    const userId = await authenticate(req);
    if (!userId) return fail(res, 401, 'UNAUTHORIZED', 'Invalid API key');
    const body = await readJson(req);
    if (typeof body.volume !== 'number' || !(body.volume > 0)) return fail(res, 400, 'VALIDATION_ERROR', 'volume must be positive');
    const today = new Date().toISOString().slice(0, 10);
    const day = (await pool.query(`SELECT id FROM days WHERE user_id = $1 AND date = $2`, [userId, today])).rows[0];
    if (!day) return fail(res, 404, 'NOT_FOUND', 'No day for today');
    const id = randomUUID();
    const time = body.time ? new Date(body.time) : new Date();
    await pool.query(
      `INSERT INTO water_intakes (id, created_at, updated_at, user_id, day_id, volume, time, notes) VALUES ($1, now(), now(), $2, $3, $4, $5, $6)`,
      [id, userId, day.id, body.volume, time, body.notes ?? null],
    );
    send(res, 200, { ok: true, data: { id, volume: body.volume, time: time.toISOString(), message: `Logged ${body.volume} ml of water` } });
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
