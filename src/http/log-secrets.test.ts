import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../core/logger.js';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { requestLogging } from './request-logging.js';

/**
 * Issue 23 item 10: what the request lines and error lines must never carry, read from the lines
 * themselves: the Brain form password header, the OAuth code in a redirect's Location, the calendar
 * feed's token in the path, and a failed statement's SQL with what the user wrote.
 */
const lines: Record<string, any>[] = [];
const capture = (level: string) => createLogger(level, { write: (line: string) => void lines.push(JSON.parse(line)) });
const FEED_TOKEN = 'Qm9vbXNlY3JldGZlZWR0b2tlbl9hYmNkZWZnaGlqa2xtbm8';

let server: Server;
let base: string;
let app: TestApp;
beforeAll(async () => {
  const web = express();
  web.use(requestLogging(capture('info')));
  web.get('/authorize/done', (_req, res) => res.redirect(302, 'https://client.example/cb?code=oauth-code-secret&state=xyz'));
  web.get('/agenda/feed/:file', (_req, res) => void res.status(404).send('no'));
  web.post('/forms/:id/answers', (req, res) => {
    (req as Request & { log: { warn(m: string): void } }).log.warn('wrong form password');
    res.status(403).send('no');
  });
  server = web.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = await sharedTestApp();
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('secrets in logs', () => {
  it('redacts the form password header, the OAuth code of a redirect and the feed token of a path', async () => {
    lines.length = 0;
    await fetch(`${base}/forms/f1/answers`, { method: 'POST', headers: { 'X-Brain-Access-Password': 'form-password-secret' } });
    await fetch(`${base}/authorize/done`, { redirect: 'manual' });
    await fetch(`${base}/agenda/feed/${FEED_TOKEN}.ics?x=1`);
    const text = JSON.stringify(lines);
    for (const secret of ['form-password-secret', 'oauth-code-secret', FEED_TOKEN]) expect(text).not.toContain(secret);
    const byUrl = (url: string) => lines.find((l) => l.req?.url === url && l.res);
    expect(lines.find((l) => l.msg === 'wrong form password')!.req.headers['x-brain-access-password']).toBe('[redacted]');
    expect(byUrl('/authorize/done')!.res.headers.location).toBe('https://client.example/cb?code=%5Bredacted%5D&state=xyz');
    expect(byUrl('/agenda/feed/[redacted].ics?x=1')!.res.statusCode).toBe(404);
  });

  it('logs a failed statement by its server message and the names it concerns, not its SQL or the values written', async () => {
    lines.length = 0;
    const logger = capture('info');
    const secret = 'diary-entry-secret-text';
    try {
      await app.server.orm.em.fork().getConnection().execute('insert into users (id, email) values (gen_random_uuid(), ?)', [secret]);
      expect.unreachable('the insert lacks required columns');
    } catch (error) {
      logger.error({ err: error }, 'write failed');
    }
    const [line] = lines;
    expect(JSON.stringify(line)).not.toContain(secret);
    expect(JSON.stringify(line)).not.toContain('insert into');
    expect(line!.err).toMatchObject({ code: '23502', table: 'users', message: expect.stringMatching(/^null value in column .* violates not-null constraint$/) });
    expect(line!.err.stack).toMatch(/^\w+: null value in column [^\n]*\n\s+at /);
  });
});
