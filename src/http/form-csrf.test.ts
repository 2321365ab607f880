import express, { type ErrorRequestHandler } from 'express';
import cookieParser from 'cookie-parser';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { CSRF_FIELD } from './form-csrf.js';
import { AppError } from '../core/errors.js';

// The helper the service's own HTML forms use, through a minimal form page mounted only here (no page
// of the service has a form yet), keyed from the real service's secret.
let app: TestApp;
let page: Server;
let pageUrl: string;
beforeAll(async () => {
  app = await startTestApp();
  const csrf = app.server.deps.formCsrf;
  const web = express();
  web.use(cookieParser());
  web.get('/form', (req, res) => {
    res.type('html').send(`<form method="post" action="/form"><input type="hidden" name="${CSRF_FIELD}" value="${csrf.token(req, res)}"><input name="answer"></form>`);
  });
  web.post('/form', ...csrf.protect, (req, res) => {
    res.json({ ok: true, data: { answer: req.body.answer } });
  });
  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    res.status(error instanceof AppError ? error.status : 500).json({ ok: false, error: { code: error.code, message: error.message } });
  };
  web.use(onError);
  page = await new Promise<Server>((resolve) => {
    const server = web.listen(0, '127.0.0.1', () => resolve(server));
  });
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => page?.close(resolve));
  await app?.close();
});

/** Loads the form as a browser would: the token in the page, the cookie it set. */
async function loadForm(cookie?: string): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${pageUrl}/form`, { headers: cookie ? { cookie } : {} });
  const token = /name="_csrf" value="([^"]+)"/.exec(await res.text())![1]!;
  const set = res.headers.getSetCookie().find((c) => c.startsWith('lp_csrf='))!;
  expect(set).toMatch(/HttpOnly/i);
  expect(set).toMatch(/SameSite=Strict/i);
  return { token, cookie: set.split(';')[0]! };
}

function submit(fields: Record<string, string>, cookie?: string) {
  return fetch(`${pageUrl}/form`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: cookie ? { cookie } : {},
  });
}

describe('form CSRF token', () => {
  it('lets the form of our own page through', async () => {
    const { token, cookie } = await loadForm();
    const res = await submit({ [CSRF_FIELD]: token, answer: '42' }, cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, data: { answer: '42' } });
  });

  it('refuses 403 FORBIDDEN a post without the token, without the cookie, or with a forged one', async () => {
    const { token, cookie } = await loadForm();
    for (const res of [
      await submit({ answer: '42' }, cookie), // another site's form: it cannot read the token
      await submit({ [CSRF_FIELD]: token, answer: '42' }), // no cookie
      await submit({ [CSRF_FIELD]: `${token.split('.')[0]}.${'0'.repeat(64)}`, answer: '42' }, `lp_csrf=${token.split('.')[0]}.${'0'.repeat(64)}`), // forged pair
    ]) {
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('FORBIDDEN');
    }
  });

  it("refuses another visitor's token pair, and a token issued before the visitor signed in", async () => {
    const attacker = await loadForm();
    // An attacker who planted their own valid pair still needs the victim's session to match.
    const { client } = await signUp(app.url);
    const res = await submit({ [CSRF_FIELD]: attacker.token, answer: '42' }, `${attacker.cookie}; ${client.cookie}`);
    expect(res.status).toBe(403);
    const own = await loadForm(client.cookie);
    expect((await submit({ [CSRF_FIELD]: own.token, answer: '42' }, `${own.cookie}; ${client.cookie}`)).status).toBe(200);
  });
});
