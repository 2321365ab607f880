import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, startTestApp, type TestApp } from '../../test/support/test-app.js';
import { HttpClient, signUp } from '../../test/support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

let n = 0;
const freshEmail = () => `auth${Date.now()}_${process.pid}_${++n}@example.com`;
const PASSWORD = 'correct horse battery';

function sessionCookie(headers: Headers): string | undefined {
  return headers.getSetCookie().find((c) => c.startsWith('lp_session='));
}

function expectError(res: { status: number; body: any; headers: Headers }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ ok: false, error: { code } });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.headers.get('api-version')).toBe('v1');
}

describe('POST /auth/register', () => {
  it('creates the user: 201, data.user {id, email, createdAt} and an httpOnly Lax session cookie', async () => {
    const client = new HttpClient(app.url);
    const email = freshEmail();
    const res = await client.post('/api/v1/auth/register', { email, password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body.ok).toBe(true);
    const user = res.body.data.user;
    expect(user).toMatchObject({ email });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(user.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(user).not.toHaveProperty('passwordHash');
    const cookie = sessionCookie(res.headers)!;
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    expect(cookie).not.toMatch(/;\s*Secure/i); // BASE_URL is http here
    const me = await client.get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: user.id, email });
  });

  it('stores the email trimmed and lower-cased', async () => {
    const email = freshEmail();
    const res = await new HttpClient(app.url).post('/api/v1/auth/register', { email: `  ${email.toUpperCase()} `, password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body.data.user.email).toBe(email);
  });

  it('refuses an email already registered with 409 EMAIL_EXISTS, also in other case or with spaces', async () => {
    const { email } = await signUp(app.url);
    for (const variant of [email, email.toUpperCase(), ` ${email}  `, `\t${email.replace(/^./, (c) => c.toUpperCase())}`]) {
      const res = await new HttpClient(app.url).post('/api/v1/auth/register', { email: variant, password: PASSWORD });
      expectError(res, 409, 'EMAIL_EXISTS');
      expect(sessionCookie(res.headers)).toBeUndefined();
    }
  });

  it('lets exactly one of two simultaneous registrations of one email win', async () => {
    const email = freshEmail();
    const results = await Promise.all(
      [0, 1, 2].map(() => new HttpClient(app.url).post('/api/v1/auth/register', { email, password: PASSWORD })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('refuses a malformed email and a short password with 400 naming the field', async () => {
    const bad = await new HttpClient(app.url).post('/api/v1/auth/register', { email: 'not-an-email', password: PASSWORD });
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect(bad.body.error.details.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: ['email'] })]));
    const short = await new HttpClient(app.url).post('/api/v1/auth/register', { email: freshEmail(), password: 'short' });
    expectError(short, 400, 'VALIDATION_ERROR');
    expect(short.body.error.details.errors).toEqual([{ path: ['password'], message: expect.stringMatching(/at least 8/) }]);
  });
});

describe('POST /auth/login', () => {
  it('signs in with 200, data.user and a fresh cookie, ignoring email case and spaces', async () => {
    const { email, id } = await signUp(app.url);
    const client = new HttpClient(app.url);
    const res = await client.post('/api/v1/auth/login', { email: ` ${email.toUpperCase()} `, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, data: { user: { id, email } } });
    const cookie = sessionCookie(res.headers)!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect((await client.get('/api/v1/auth/me')).body.data.id).toBe(id);
  });

  it('answers 401 INVALID_CREDENTIALS alike for a wrong password and an unknown email', async () => {
    const { email } = await signUp(app.url);
    const wrong = await new HttpClient(app.url).post('/api/v1/auth/login', { email, password: 'wrong password!' });
    const unknown = await new HttpClient(app.url).post('/api/v1/auth/login', { email: freshEmail(), password: PASSWORD });
    for (const res of [wrong, unknown]) {
      expectError(res, 401, 'INVALID_CREDENTIALS');
      expect(sessionCookie(res.headers)).toBeUndefined();
    }
    expect(wrong.body).toEqual(unknown.body);
  });
});

describe('POST /auth/logout', () => {
  it('clears the cookie and ends the session on the server', async () => {
    const { client } = await signUp(app.url);
    const oldCookie = client.cookie!;
    const res = await client.post('/api/v1/auth/logout');
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    const cleared = sessionCookie(res.headers)!;
    expect(cleared).toMatch(/^lp_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/i);
    expect(client.cookie).toBeUndefined();
    // The old token, replayed, no longer works.
    const replay = await client.get('/api/v1/auth/me', { headers: { cookie: oldCookie } });
    expectError(replay, 401, 'UNAUTHORIZED');
  });

  it('ends only that session: another signed-in browser stays signed in', async () => {
    const { client, email, password } = await signUp(app.url);
    const other = new HttpClient(app.url);
    expect((await other.post('/api/v1/auth/login', { email, password })).status).toBe(200);
    await client.post('/api/v1/auth/logout');
    expect((await other.get('/api/v1/auth/me')).status).toBe(200);
  });

  it('answers 200 without a session too', async () => {
    const res = await new HttpClient(app.url).post('/api/v1/auth/logout');
    expect(res.status).toBe(200);
  });
});

describe('GET /auth/me', () => {
  it('answers 200 with id, email, createdAt', async () => {
    const { client, id, email } = await signUp(app.url);
    const res = await client.get('/api/v1/auth/me');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, data: { id, email, createdAt: expect.any(String) } });
    expect(res.body.data).not.toHaveProperty('passwordHash');
  });

  it('answers 401 UNAUTHORIZED without a cookie, with garbage and with a tampered token', async () => {
    const { client } = await signUp(app.url);
    const token = client.cookie!.slice('lp_session='.length);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const cookies = [
      undefined,
      'lp_session=garbage',
      'lp_session=',
      `lp_session=${header}.${forgedPayload}.${signature}`,
      `lp_session=${header}.${payload}.${flipped}`,
      `lp_session=${none}.${payload}.`,
    ];
    for (const cookie of cookies) {
      const res = await new HttpClient(app.url).get('/api/v1/auth/me', cookie ? { headers: { cookie } } : {});
      expectError(res, 401, 'UNAUTHORIZED');
    }
    expect((await client.get('/api/v1/auth/me')).status).toBe(200); // the genuine one still works
  });
});

describe('cookie on an https BASE_URL', () => {
  it('is marked Secure', async () => {
    const secureApp = await startTestApp({ BASE_URL: 'https://planner.example.test' });
    try {
      const res = await new HttpClient(secureApp.url).post('/api/v1/auth/register', { email: freshEmail(), password: PASSWORD });
      expect(res.status).toBe(201);
      expect(sessionCookie(res.headers)).toMatch(/;\s*Secure/i);
      const out = await new HttpClient(secureApp.url).post('/api/v1/auth/logout');
      expect(sessionCookie(out.headers)).toMatch(/;\s*Secure/i);
    } finally {
      await secureApp.close();
    }
  });
});

describe('the same flows through /graphql', () => {
  const USER = 'user { id email createdAt }';

  it('register, me, login, logout with the cookie', async () => {
    const client = new HttpClient(app.url);
    const email = freshEmail();
    const reg = await client.graphql(`mutation ($email: String!, $password: String!) { register(email: $email, password: $password) { ${USER} } }`, {
      email,
      password: PASSWORD,
    });
    expect(reg.status).toBe(200);
    expect(reg.body.errors).toBeUndefined();
    expect(reg.body.data.register.user.email).toBe(email);
    expect(sessionCookie(reg.headers)).toMatch(/HttpOnly/i);
    expect(reg.headers.get('api-version')).toBe('v1');

    const me = await client.graphql('{ me { id email } }');
    expect(me.body.data.me).toEqual({ id: reg.body.data.register.user.id, email });

    const out = await client.graphql('mutation { logout { message } }');
    expect(out.body.data.logout.message).toEqual(expect.any(String));
    const after = await client.graphql('{ me { id } }');
    expect(after.body.errors![0].extensions.code).toBe('UNAUTHORIZED');

    const login = await client.graphql(`mutation ($email: String!, $password: String!) { login(email: $email, password: $password) { ${USER} } }`, {
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(login.body.data.login.user.email).toBe(email);
    expect((await client.graphql('{ me { email } }')).body.data.me.email).toBe(email);
  });

  it('carries the REST error codes in extensions.code', async () => {
    const { email, client } = await signUp(app.url);
    const anon = new HttpClient(app.url);
    const dup = await anon.graphql('mutation ($e: String!) { register(email: $e, password: "long enough password") { user { id } } }', { e: email.toUpperCase() });
    expect(dup.body.errors![0].extensions).toMatchObject({ code: 'EMAIL_EXISTS', status: 409 });

    const wrong = await anon.graphql('mutation ($e: String!) { login(email: $e, password: "nope nope nope") { user { id } } }', { e: email });
    expect(wrong.body.errors![0].extensions).toMatchObject({ code: 'INVALID_CREDENTIALS', status: 401 });

    const me = await anon.graphql('{ me { id } }');
    expect(me.body.errors![0].extensions).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });

    const short = await anon.graphql('mutation { register(email: "x@example.com", password: "short") { user { id } } }');
    expect(short.body.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['password'] }] } });

    const change = await client.graphql('mutation { changePassword(currentPassword: "not the password", newPassword: "another long password") { message } }');
    expect(change.body.errors![0].extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
      details: { errors: [{ path: ['currentPassword'] }] },
    });
  });

  it('changePassword keeps this session and ends the others', async () => {
    const { client, email, password } = await signUp(app.url);
    const other = new HttpClient(app.url);
    await other.post('/api/v1/auth/login', { email, password });
    const res = await client.graphql('mutation ($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) { message } }', {
      c: password,
      n: 'a brand new password',
    });
    expect(res.body.errors).toBeUndefined();
    expect((await client.graphql('{ me { email } }')).body.data.me.email).toBe(email);
    expect((await other.graphql('{ me { email } }')).body.errors![0].extensions.code).toBe('UNAUTHORIZED');
    const login = await new HttpClient(app.url).post('/api/v1/auth/login', { email, password: 'a brand new password' });
    expect(login.status).toBe(200);
  });

  it('names the variable when variable coercion fails, without a 500', async () => {
    const res = await new HttpClient(app.url).graphql('mutation ($email: String!, $password: String!) { login(email: $email, password: $password) { user { id } } }', {
      email: 5,
      password: { a: 1 },
    });
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    expect(res.body.errors![0].extensions.details.errors[0].path).toEqual(['email']);
    const missing = await new HttpClient(app.url).graphql('mutation ($email: String!, $password: String!) { login(email: $email, password: $password) { user { id } } }', {
      email: 'a@example.com',
    });
    expect(missing.body.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['password'] }] } });
  });
});
