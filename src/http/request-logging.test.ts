import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../core/logger.js';
import { requestLogging } from './request-logging.js';

/**
 * Below `info` no request line is written, so no request is serialised up front (issue 18); a request
 * that logs an error still carries its id, method, scrubbed URL and redacted headers.
 */
const lines: Record<string, any>[] = [];
let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(requestLogging(createLogger('warn', { write: (line: string) => void lines.push(JSON.parse(line)) })));
  app.get('/ok', (_req, res) => void res.send('ok'));
  app.get('/fail', (req, res) => {
    (req as Request & { log: { error(o: object, m: string): void } }).log.error({ code: 'X' }, 'it failed');
    res.status(500).send('failed');
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('request logging above info', () => {
  it('writes no line for a request that logs nothing, and still answers X-Request-Id (the caller’s when well-formed)', async () => {
    const given = await fetch(`${base}/ok`, { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const made = await fetch(`${base}/ok`, { headers: { 'x-request-id': 'not valid!' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toEqual([]);
  });

  it('gives a request that logs an error a logger bound to it: id, method, scrubbed URL, redacted credentials', async () => {
    const res = await fetch(`${base}/fail?token=secret-token&page=2`, { headers: { authorization: 'Bearer lp_secret_key', 'x-request-id': 'req-42' } });
    expect(res.status).toBe(500);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ level: 50, msg: 'it failed', code: 'X', req: { id: 'req-42', method: 'GET', url: '/fail?token=%5Bredacted%5D&page=2' } });
    expect(line!.req.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(line)).not.toContain('secret');
  });
});
