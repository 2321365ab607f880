import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { sharedTestApp, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { HttpClient, signUp } from '../../../test/support/http-client.js';
import { sql } from '../../../test/support/db.js';
import { expectStatus, expectValidation } from '../../../test/support/expectations.js';
import { enableTotp, freshTimeStep, totpCode, wrongCode } from './two-factor.test-helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});
// Each test uses the codes of at most three neighbouring time steps: start it early in a step.
beforeEach(() => freshTimeStep());

const sessionCount = async (userId: string) => Number((await sql(app.databaseUrl, 'select count(*)::int as n from login_sessions where user_id = $1', [userId]))[0]!.n);
const sessionCookieOf = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith('lp_session='));

/** Signs in with the password: the answer of an account with two-factor is SECOND_FACTOR_REQUIRED. */
async function passwordStep(email: string, password: string) {
  const http = new HttpClient(app.url);
  const res = await http.post('/api/v1/auth/login', { email, password });
  return { http, res };
}

describe('enrolment', () => {
  it('starts with a base32 secret, an otpauth URI (issuer, email) and an SVG QR code; a first valid code turns it on with ten recovery codes', async () => {
    const user = await signUp(app.url);
    expect((await user.client.get('/api/v1/auth/2fa')).body.data).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 });

    const started = await user.client.post('/api/v1/auth/2fa/totp/start', {});
    expectStatus(started, 200);
    const { secret, otpauthUri, qrCodeDataUrl } = started.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Life Planner:${user.email}`);
    expect(uri.searchParams.get('issuer')).toBe('Life Planner');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(qrCodeDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCodeDataUrl.split(',')[1], 'base64').toString()).toContain('<svg');

    // Not yet on: signing in still needs the password only.
    const before = await passwordStep(user.email, user.password);
    expectStatus(before.res, 200);

    // The secret is stored encrypted, not as given.
    const [row] = await sql(app.databaseUrl, 'select secret_encrypted, enabled_at from totp_credentials where user_id = $1', [user.id]);
    expect(row!.secret_encrypted).not.toContain(secret);
    expect(row!.enabled_at).toBeNull();

    expectValidation(await user.client.post('/api/v1/auth/2fa/totp/confirm', { code: wrongCode(secret) }), 'code');
    const confirmed = await user.client.post('/api/v1/auth/2fa/totp/confirm', { code: totpCode(secret) });
    expectStatus(confirmed, 200);
    const codes: string[] = confirmed.body.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    // Stored hashed only.
    const stored = await sql(app.databaseUrl, 'select code_hash from recovery_codes where user_id = $1', [user.id]);
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) expect(codes).not.toContain(code_hash);

    const status = (await user.client.get('/api/v1/auth/2fa')).body.data;
    expect(status).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // A second enrolment while on is refused.
    expectStatus(await user.client.post('/api/v1/auth/2fa/totp/start', {}), 400, 'VALIDATION_ERROR');
    // GET /auth/me answers as before (two-factor has its own route, GET /auth/2fa).
    const me = (await user.client.get('/api/v1/auth/me')).body.data;
    expect(me).toMatchObject({ id: user.id, email: user.email, createdAt: expect.any(String) });
    expect(Object.keys(me).filter((key) => /factor|totp/i.test(key))).toEqual([]);
  });

  it('is offered over GraphQL too', async () => {
    const user = await signUp(app.url);
    const started = await user.client.graphql<{ startTotpEnrolment: { secret: string } }>('mutation { startTotpEnrolment { secret otpauthUri qrCodeDataUrl } }');
    const secret = started.body.data!.startTotpEnrolment.secret;
    const confirmed = await user.client.graphql('mutation($code: String!) { confirmTotpEnrolment(code: $code) { recoveryCodes } }', { code: totpCode(secret) });
    expect(confirmed.body.data.confirmTotpEnrolment.recoveryCodes).toHaveLength(10);
    const status = await user.client.graphql('{ twoFactor { enabled recoveryCodesLeft } }');
    expect(status.body.data.twoFactor).toEqual({ enabled: true, recoveryCodesLeft: 10 });
  });
});

describe('signing in with two-factor', () => {
  it('asks for the second factor after the password (401 SECOND_FACTOR_REQUIRED, no cookie, no session), then the code signs in', async () => {
    const user = await signUp(app.url);
    const { secret } = await enableTotp(user.client);
    const sessions = await sessionCount(user.id);

    const wrongPassword = await passwordStep(user.email, 'not the password');
    expectStatus(wrongPassword.res, 401, 'INVALID_CREDENTIALS');

    const { http, res } = await passwordStep(user.email, user.password);
    expectStatus(res, 401, 'SECOND_FACTOR_REQUIRED');
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(http.cookie).toBeUndefined();
    const { challengeToken, methods, expiresAt } = res.body.error.details;
    expect(methods).toEqual(['totp', 'recovery_code']);
    expect(new Date(expiresAt).getTime() - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(new Date(expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(await sessionCount(user.id)).toBe(sessions);

    const done = await http.post('/api/v1/auth/login/second-factor', { challengeToken, code: totpCode(secret) });
    expectStatus(done, 200);
    expect(done.body.data.user).toMatchObject({ id: user.id, email: user.email });
    expect(sessionCookieOf(done)).toMatch(/HttpOnly/i);
    expect(await sessionCount(user.id)).toBe(sessions + 1);
    expectStatus(await http.get('/api/v1/auth/me'), 200);

    // The step is single use.
    expectValidation(await new HttpClient(app.url).post('/api/v1/auth/login/second-factor', { challengeToken, code: totpCode(secret, 1) }), 'challengeToken');
  });

  it('refuses a replayed code: the same time step works once, even on a new sign-in', async () => {
    const user = await signUp(app.url);
    const { secret } = await enableTotp(user.client);
    const code = totpCode(secret);
    const first = await passwordStep(user.email, user.password);
    expectStatus(await first.http.post('/api/v1/auth/login/second-factor', { challengeToken: first.res.body.error.details.challengeToken, code }), 200);

    const second = await passwordStep(user.email, user.password);
    const replayed = await second.http.post('/api/v1/auth/login/second-factor', { challengeToken: second.res.body.error.details.challengeToken, code });
    expectStatus(replayed, 401, 'INVALID_CREDENTIALS');
    expect(replayed.body.error.details.attemptsLeft).toBe(4);
    expect(replayed.headers.getSetCookie()).toEqual([]);
    // The code of the enrolment's step is older still: refused as well.
    const older = await second.http.post('/api/v1/auth/login/second-factor', { challengeToken: second.res.body.error.details.challengeToken, code: totpCode(secret, -1) });
    expectStatus(older, 401, 'INVALID_CREDENTIALS');
    // The next step's code is fresh.
    expectStatus(await second.http.post('/api/v1/auth/login/second-factor', { challengeToken: second.res.body.error.details.challengeToken, code: totpCode(secret, 1) }), 200);
  });

  it('takes a recovery code once', async () => {
    const user = await signUp(app.url);
    const { recoveryCodes } = await enableTotp(user.client);
    const first = await passwordStep(user.email, user.password);
    // Typed loosely: upper case, no dashes, spaces around.
    const typed = ` ${recoveryCodes[3]!.replace(/-/g, '').toUpperCase()} `;
    const ok = await first.http.post('/api/v1/auth/login/second-factor', { challengeToken: first.res.body.error.details.challengeToken, recoveryCode: typed });
    expectStatus(ok, 200);
    expect(sessionCookieOf(ok)).toBeDefined();

    const second = await passwordStep(user.email, user.password);
    const again = await second.http.post('/api/v1/auth/login/second-factor', { challengeToken: second.res.body.error.details.challengeToken, recoveryCode: recoveryCodes[3] });
    expectStatus(again, 401, 'INVALID_CREDENTIALS');
    expect(again.headers.getSetCookie()).toEqual([]);
    expect((await user.client.get('/api/v1/auth/2fa')).body.data.recoveryCodesLeft).toBe(9);
    expectStatus(await second.http.post('/api/v1/auth/login/second-factor', { challengeToken: second.res.body.error.details.challengeToken, recoveryCode: recoveryCodes[4] }), 200);
  });

  it('kills the step after five wrong codes: even the right code is refused then', async () => {
    const user = await signUp(app.url);
    const { secret } = await enableTotp(user.client);
    const { http, res } = await passwordStep(user.email, user.password);
    const challengeToken = res.body.error.details.challengeToken;
    for (let left = 4; left >= 0; left--) {
      const wrong = await http.post('/api/v1/auth/login/second-factor', { challengeToken, code: wrongCode(secret) });
      expectStatus(wrong, 401, 'INVALID_CREDENTIALS');
      expect(wrong.body.error.details.attemptsLeft).toBe(left);
    }
    const dead = await http.post('/api/v1/auth/login/second-factor', { challengeToken, code: totpCode(secret) });
    expectValidation(dead, 'challengeToken');
    expect(dead.headers.getSetCookie()).toEqual([]);
    expect(http.cookie).toBeUndefined();
    // A new sign-in opens a new step, and the code was not spent by the dead one.
    const again = await passwordStep(user.email, user.password);
    expectStatus(await again.http.post('/api/v1/auth/login/second-factor', { challengeToken: again.res.body.error.details.challengeToken, code: totpCode(secret) }), 200);
  });

  it('refuses an unknown or expired step, and needs exactly one of code and recoveryCode', async () => {
    const user = await signUp(app.url);
    const { secret } = await enableTotp(user.client);
    const http = new HttpClient(app.url);
    expectValidation(await http.post('/api/v1/auth/login/second-factor', { challengeToken: 'made-up', code: totpCode(secret) }), 'challengeToken');
    const { res } = await passwordStep(user.email, user.password);
    const challengeToken = res.body.error.details.challengeToken;
    expectValidation(await http.post('/api/v1/auth/login/second-factor', { challengeToken }), 'code');
    expectValidation(await http.post('/api/v1/auth/login/second-factor', { challengeToken, code: totpCode(secret), recoveryCode: 'abcd-efgh-jkmn-pqrs' }));
    await sql(app.databaseUrl, "update sign_in_challenges set expires_at = now() - interval '1 second' where user_id = $1", [user.id]);
    expectValidation(await http.post('/api/v1/auth/login/second-factor', { challengeToken, code: totpCode(secret) }), 'challengeToken');
  });

  it('works over GraphQL: login answers the SECOND_FACTOR_REQUIRED error with its details, completeSignIn sets the cookie', async () => {
    const user = await signUp(app.url);
    const { secret } = await enableTotp(user.client);
    const http = new HttpClient(app.url);
    const login = await http.graphql('mutation($email: String!, $password: String!) { login(email: $email, password: $password) { user { id } } }', { email: user.email, password: user.password });
    expect(login.body.errors![0].extensions).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED', status: 401 });
    expect(http.cookie).toBeUndefined();
    const { challengeToken } = login.body.errors![0].extensions.details;
    const done = await http.graphql('mutation($t: String!, $c: String) { completeSignIn(challengeToken: $t, code: $c) { user { id } } }', { t: challengeToken, c: totpCode(secret) });
    expect(done.body.data.completeSignIn.user.id).toBe(user.id);
    expect(http.cookie).toBeDefined();
  });
});

describe('codes under pressure', () => {
  it('lets one of two simultaneous uses of one code through (two sign-ins racing with a code seen over a shoulder)', async () => {
    const user = await signUp(app.url);
    const { secret } = await enableTotp(user.client);
    const [a, b] = await Promise.all([passwordStep(user.email, user.password), passwordStep(user.email, user.password)]);
    const code = totpCode(secret);
    const answers = await Promise.all([a, b].map((step) => step.http.post('/api/v1/auth/login/second-factor', { challengeToken: step.res.body.error.details.challengeToken, code })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401]);
  });

  it('counts the second step and the two-factor mutations against the auth rate limit', async () => {
    const limited = await startTestApp({ RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_AUTH_TIME_WINDOW: '60000' });
    try {
      const user = await signUp(limited.url); // 1: register
      const { http, res } = await (async () => {
        const client = new HttpClient(limited.url);
        return { http: client, res: await client.post('/api/v1/auth/login', { email: user.email, password: user.password }) }; // 2: login
      })();
      expectStatus(res, 200);
      expectValidation(await http.post('/api/v1/auth/2fa/totp/confirm', { code: '123456' }), 'code'); // 3
      expectStatus(await http.post('/api/v1/auth/login/second-factor', { challengeToken: 'x', code: '123456' }), 429, 'RATE_LIMIT_EXCEEDED');
      const graphql = await http.graphql('mutation { startTotpEnrolment { secret } }');
      expect(graphql.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMIT_EXCEEDED');
    } finally {
      await limited.close();
    }
  });
});

describe('recovery codes and turning it off', () => {
  it('regenerating needs the password and a code; the old codes stop working', async () => {
    const user = await signUp(app.url);
    const { secret, recoveryCodes } = await enableTotp(user.client);
    expectValidation(await user.client.post('/api/v1/auth/2fa/recovery-codes', { password: 'wrong password', code: totpCode(secret) }), 'password');
    expectValidation(await user.client.post('/api/v1/auth/2fa/recovery-codes', { password: user.password, code: wrongCode(secret) }), 'code');
    const fresh = await user.client.post('/api/v1/auth/2fa/recovery-codes', { password: user.password, code: totpCode(secret) });
    expectStatus(fresh, 200);
    expect(fresh.body.data.recoveryCodes).toHaveLength(10);
    const { http, res } = await passwordStep(user.email, user.password);
    expectStatus(await http.post('/api/v1/auth/login/second-factor', { challengeToken: res.body.error.details.challengeToken, recoveryCode: recoveryCodes[0] }), 401, 'INVALID_CREDENTIALS');
    expectStatus(await http.post('/api/v1/auth/login/second-factor', { challengeToken: res.body.error.details.challengeToken, recoveryCode: fresh.body.data.recoveryCodes[0] }), 200);
  });

  it('disabling needs the password and a code (a recovery code will do); then the password alone signs in', async () => {
    const user = await signUp(app.url);
    const { secret, recoveryCodes } = await enableTotp(user.client);
    expectValidation(await user.client.post('/api/v1/auth/2fa/totp/disable', { password: 'wrong password', code: totpCode(secret) }), 'password');
    expectValidation(await user.client.post('/api/v1/auth/2fa/totp/disable', { password: user.password, code: wrongCode(secret) }), 'code');
    // A code replayed from the enrolment is refused here too.
    expectValidation(await user.client.post('/api/v1/auth/2fa/totp/disable', { password: user.password, code: totpCode(secret, -1) }), 'code');
    expectStatus(await passwordStep(user.email, user.password).then((s) => s.res), 401, 'SECOND_FACTOR_REQUIRED');

    expectStatus(await user.client.post('/api/v1/auth/2fa/totp/disable', { password: user.password, code: recoveryCodes[0] }), 200);
    expect((await user.client.get('/api/v1/auth/2fa')).body.data).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 });
    expect(await sql(app.databaseUrl, 'select 1 from recovery_codes where user_id = $1', [user.id])).toEqual([]);
    expect(await sql(app.databaseUrl, 'select 1 from sign_in_challenges where user_id = $1', [user.id])).toEqual([]);
    const after = await passwordStep(user.email, user.password);
    expectStatus(after.res, 200);
    expect(sessionCookieOf(after.res)).toBeDefined();
  });

  it('needs a session for everything but the second step', async () => {
    const anonymous = new HttpClient(app.url);
    const bodies: Record<string, object> = {
      '/api/v1/auth/2fa/totp/start': {},
      '/api/v1/auth/2fa/totp/confirm': { code: '123456' },
      '/api/v1/auth/2fa/totp/disable': { password: 'correct horse battery', code: '123456' },
      '/api/v1/auth/2fa/recovery-codes': { password: 'correct horse battery', code: '123456' },
    };
    for (const [path, body] of Object.entries(bodies)) expectStatus(await anonymous.post(path, body), 401, 'UNAUTHORIZED');
    expectStatus(await anonymous.get('/api/v1/auth/2fa'), 401, 'UNAUTHORIZED');
  });
});

describe('codes made by an authenticator app', () => {
  it('matches otpauth for a fixed secret and time (RFC 6238 test vector, SHA-1)', () => {
    // RFC 6238 Appendix B: secret "12345678901234567890", T = 59 s → 94287082 (8 digits); 6 digits → 287082.
    const secret = Secret.fromUTF8('12345678901234567890').base32;
    expect(totpCode(secret, 0, 59_000)).toBe('287082');
    expect(TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: 59_000, digits: 8 })).toBe('94287082');
  });
});
