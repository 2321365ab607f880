import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { HttpClient, signUp } from '../support/http-client.js';
import { createLogger } from '../../src/core/logger.js';
import { keyHolder, PUBLIC } from '../../src/public-api/public-api.test-helpers.js';

// The service's own log lines, as they would reach stdout.
const lines: string[] = [];
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { logger: createLogger('info', { write: (line: string) => void lines.push(line) }) });
});
afterAll(async () => {
  await app?.close();
});

function logText(): string {
  return lines.join('');
}

function requestLines(): { req: { url: string; headers: Record<string, string> }; res: { headers: Record<string, unknown> } }[] {
  return lines.map((l) => JSON.parse(l)).filter((l) => l.req && l.res);
}

describe('request logs', () => {
  it('redact the session cookie, the Set-Cookie that carries it, and a bearer key', async () => {
    const { client, email, password } = await signUp(app.url);
    const jwt = client.cookie!.split('=')[1]!;
    expect(jwt.length).toBeGreaterThan(40);
    await client.get('/api/v1/auth/me');
    const login = await new HttpClient(app.url).post('/api/v1/auth/login', { email, password });
    expect(login.status).toBe(200);
    const loginJwt = login.headers.getSetCookie()[0]!.split(';')[0]!.split('=')[1]!;
    const { api, key } = await keyHolder(app);
    expect((await api.post('/water', { volume: 250 })).status).toBe(200);

    const text = logText();
    const me = requestLines().find((l) => l.req.url === '/api/v1/auth/me');
    expect(me?.req.headers.cookie).toBe('[redacted]');
    expect(requestLines().find((l) => l.req.url === `${PUBLIC}/water`)?.req.headers.authorization).toBe('[redacted]');
    expect(requestLines().find((l) => l.req.url === '/api/v1/auth/login')?.res.headers['set-cookie']).toBe('[redacted]');
    for (const secret of [jwt, loginJwt, key, password]) expect(text).not.toContain(secret);
  });

  it('never log a body, nor a password or token in the query string', async () => {
    const email = `logs${Date.now()}@example.com`;
    const password = 'my very secret passphrase';
    const anon = new HttpClient(app.url);
    await anon.post('/api/v1/auth/register', { email, password });
    await anon.graphql('mutation ($e: String!, $p: String!) { login(email: $e, password: $p) { user { id } } }', { e: email, p: password });
    await anon.post(`/api/v1/auth/login?email=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`);
    await anon.get(`/api/v1/files/x/content?signature=abcdefsignature123&expires=1`);
    await anon.post('/api/v1/auth/reset-password', undefined, { rawBody: `{"token": "resettoken123", "newPassword": "${password}"` });

    const text = logText();
    expect(text).toContain('/api/v1/auth/login?email=');
    expect(text).toContain('password=%5Bredacted%5D');
    expect(text).toContain('signature=%5Bredacted%5D');
    for (const secret of [password, encodeURIComponent(password), 'abcdefsignature123', 'resettoken123']) expect(text).not.toContain(secret);
  });
});
