import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { HttpClient, signUp } from '../../test/support/http-client.js';
import { mailsTo, readOutbox, tokenFromMail } from '../../test/support/mailbox.js';
import { sql } from '../../test/support/db.js';

const BASE_URL = 'http://planner.example.test:8080';
let app: TestApp;
let outbox: string;
beforeAll(async () => {
  // BASE_URL only shapes links and mails; the test talks to the real port.
  app = await startTestApp({ BASE_URL });
  outbox = join(app.dataDir, 'mail'); // MAIL_OUTBOX_DIR defaults to DATA_DIR/mail
});
afterAll(async () => {
  await app?.close();
});

/** Reset and verification mails leave after the answer: wait until the ones asked for are written. */
function mailsSent(of: TestApp): Promise<void> {
  return of.server.deps.background.idle();
}

let n = 0;
const freshEmail = () => `pw${Date.now()}_${process.pid}_${++n}@example.com`;
const NEW_PASSWORD = 'a completely new password';

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ ok: false, error: { code, message: expect.any(String) } });
}

describe('POST /auth/request-password-reset', () => {
  it('answers the same for a known and an unknown email, and mails a reset link only to the known one', async () => {
    const { email } = await signUp(app.url);
    const unknown = freshEmail();
    const anon = new HttpClient(app.url);
    const known = await anon.post('/api/v1/auth/request-password-reset', { email });
    await mailsSent(app);
    const missing = await anon.post('/api/v1/auth/request-password-reset', { email: unknown });
    await mailsSent(app);
    expect(known.status).toBe(200);
    expect(known.body.ok).toBe(true);
    expect(missing.status).toBe(known.status);
    expect(missing.body).toEqual(known.body);
    const mails = await mailsTo(outbox, email);
    const reset = mails.find((m) => /reset/i.test(m.subject));
    expect(reset).toBeDefined();
    expect(reset!.text).toMatch(new RegExp(`${BASE_URL.replace(/[.]/g, '\\.')}/reset-password\\?token=[A-Za-z0-9_-]{40,}`));
    expect(await mailsTo(outbox, unknown)).toEqual([]);
  });

  it('finds the account whatever the case of the email', async () => {
    const { email } = await signUp(app.url);
    await new HttpClient(app.url).post('/api/v1/auth/request-password-reset', { email: ` ${email.toUpperCase()}` });
    await mailsSent(app);
    expect(await tokenFromMail(outbox, email, BASE_URL, '/reset-password')).toBeTruthy();
  });

  it('writes into MAIL_OUTBOX_DIR when it is set', async () => {
    const dir = join(app.dataDir, 'custom-outbox');
    const other = await startTestApp({ MAIL_OUTBOX_DIR: dir });
    try {
      const { email } = await signUp(other.url);
      await new HttpClient(other.url).post('/api/v1/auth/request-password-reset', { email });
      await mailsSent(other);
      expect(await tokenFromMail(dir, email, other.server.deps.config.baseUrl, '/reset-password')).toBeTruthy();
      expect(await readOutbox(join(other.dataDir, 'mail'))).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('POST /auth/reset-password', () => {
  it('sets the new password once, ends every session, and refuses the token the second time', async () => {
    const { client, email, password } = await signUp(app.url);
    const second = new HttpClient(app.url);
    await second.post('/api/v1/auth/login', { email, password });
    await new HttpClient(app.url).post('/api/v1/auth/request-password-reset', { email });
    await mailsSent(app);
    const token = await tokenFromMail(outbox, email, BASE_URL, '/reset-password');

    const res = await new HttpClient(app.url).post('/api/v1/auth/reset-password', { token, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);

    expectError(await client.get('/api/v1/auth/me'), 401, 'UNAUTHORIZED');
    expectError(await second.get('/api/v1/auth/me'), 401, 'UNAUTHORIZED');
    expectError(await new HttpClient(app.url).post('/api/v1/auth/login', { email, password }), 401, 'INVALID_CREDENTIALS');
    expect((await new HttpClient(app.url).post('/api/v1/auth/login', { email, password: NEW_PASSWORD })).status).toBe(200);

    const again = await new HttpClient(app.url).post('/api/v1/auth/reset-password', { token, newPassword: 'yet another password' });
    expectError(again, 400, 'VALIDATION_ERROR');
    expect(again.body.error.details.errors[0].path).toEqual(['token']);
    expect((await new HttpClient(app.url).post('/api/v1/auth/login', { email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('refuses an expired token', async () => {
    const { id, email, password } = await signUp(app.url);
    await new HttpClient(app.url).post('/api/v1/auth/request-password-reset', { email });
    await mailsSent(app);
    const token = await tokenFromMail(outbox, email, BASE_URL, '/reset-password');
    const aged = await sql(app.databaseUrl, `update auth_tokens set expires_at = now() - interval '1 second' where user_id = $1 and kind = 'password_reset'`, [id]);
    expect(aged).toBeDefined();
    const res = await new HttpClient(app.url).post('/api/v1/auth/reset-password', { token, newPassword: NEW_PASSWORD });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect((await new HttpClient(app.url).post('/api/v1/auth/login', { email, password })).status).toBe(200);
  });

  it('expires reset tokens after one hour', async () => {
    const { id, email } = await signUp(app.url);
    await new HttpClient(app.url).post('/api/v1/auth/request-password-reset', { email });
    await mailsSent(app);
    const [row] = await sql(app.databaseUrl, `select extract(epoch from expires_at - created_at) as ttl from auth_tokens where user_id = $1 and kind = 'password_reset'`, [id]);
    expect(Number(row!.ttl)).toBeCloseTo(3600, -1);
  });

  it('refuses an unknown token, a verification token, and a too short new password', async () => {
    const { email } = await signUp(app.url);
    const anon = new HttpClient(app.url);
    expectError(await anon.post('/api/v1/auth/reset-password', { token: 'x'.repeat(43), newPassword: NEW_PASSWORD }), 400, 'VALIDATION_ERROR');
    const verifyToken = await tokenFromMail(outbox, email, BASE_URL, '/verify-email');
    expectError(await anon.post('/api/v1/auth/reset-password', { token: verifyToken, newPassword: NEW_PASSWORD }), 400, 'VALIDATION_ERROR');
    await anon.post('/api/v1/auth/request-password-reset', { email });
    await mailsSent(app);
    const token = await tokenFromMail(outbox, email, BASE_URL, '/reset-password');
    const short = await anon.post('/api/v1/auth/reset-password', { token, newPassword: 'short' });
    expectError(short, 400, 'VALIDATION_ERROR');
    expect(short.body.error.details.errors[0].path).toEqual(['newPassword']);
    // The refused attempt did not use the token up.
    expect((await anon.post('/api/v1/auth/reset-password', { token, newPassword: NEW_PASSWORD })).status).toBe(200);
  });
});

describe('outstanding reset links after a new password', () => {
  /** Every reset token mailed to `email`, oldest first. */
  async function resetTokens(email: string, count: number): Promise<string[]> {
    await tokenFromMail(outbox, email, BASE_URL, '/reset-password'); // waits for the newest mail
    const re = /\/reset-password\?token=([A-Za-z0-9_%.-]+)/;
    const tokens = (await mailsTo(outbox, email)).map((m) => re.exec(m.text)?.[1]).filter((t): t is string => Boolean(t));
    expect(tokens).toHaveLength(count);
    return tokens.map(decodeURIComponent);
  }

  it('a completed reset ends the other reset links too', async () => {
    const { email } = await signUp(app.url);
    const anon = new HttpClient(app.url);
    await anon.post('/api/v1/auth/request-password-reset', { email });
    await mailsSent(app);
    await anon.post('/api/v1/auth/request-password-reset', { email });
    await mailsSent(app);
    const [older, newer] = await resetTokens(email, 2);
    expect((await anon.post('/api/v1/auth/reset-password', { token: newer, newPassword: NEW_PASSWORD })).status).toBe(200);
    // Whoever still holds the older mail cannot set a password of their own.
    const res = await anon.post('/api/v1/auth/reset-password', { token: older, newPassword: 'the attacker password' });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors[0].path).toEqual(['token']);
    expect((await anon.post('/api/v1/auth/login', { email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('a password change ends every outstanding reset link', async () => {
    const { client, email, password } = await signUp(app.url);
    await new HttpClient(app.url).post('/api/v1/auth/request-password-reset', { email });
    await mailsSent(app);
    const [token] = await resetTokens(email, 1);
    expect((await client.post('/api/v1/auth/change-password', { currentPassword: password, newPassword: NEW_PASSWORD })).status).toBe(200);
    const res = await new HttpClient(app.url).post('/api/v1/auth/reset-password', { token, newPassword: 'the attacker password' });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect((await new HttpClient(app.url).post('/api/v1/auth/login', { email, password: NEW_PASSWORD })).status).toBe(200);
  });
});

describe('POST /auth/change-password', () => {
  it('requires the session', async () => {
    const res = await new HttpClient(app.url).post('/api/v1/auth/change-password', { currentPassword: 'whatever it is', newPassword: NEW_PASSWORD });
    expectError(res, 401, 'UNAUTHORIZED');
  });

  it('refuses a wrong current password with 400 VALIDATION_ERROR naming currentPassword', async () => {
    const { client, email, password } = await signUp(app.url);
    const res = await client.post('/api/v1/auth/change-password', { currentPassword: 'not my password', newPassword: NEW_PASSWORD });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors).toEqual([{ path: ['currentPassword'], message: expect.any(String) }]);
    expect((await new HttpClient(app.url).post('/api/v1/auth/login', { email, password })).status).toBe(200);
  });

  it('changes the password, keeps this session and ends the other ones', async () => {
    const { client, email, password } = await signUp(app.url);
    const other = new HttpClient(app.url);
    await other.post('/api/v1/auth/login', { email, password });
    const res = await client.post('/api/v1/auth/change-password', { currentPassword: password, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect((await client.get('/api/v1/auth/me')).status).toBe(200);
    expectError(await other.get('/api/v1/auth/me'), 401, 'UNAUTHORIZED');
    expectError(await new HttpClient(app.url).post('/api/v1/auth/login', { email, password }), 401, 'INVALID_CREDENTIALS');
    expect((await new HttpClient(app.url).post('/api/v1/auth/login', { email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('refuses a too short new password naming newPassword', async () => {
    const { client, password } = await signUp(app.url);
    const res = await client.post('/api/v1/auth/change-password', { currentPassword: password, newPassword: 'short' });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors[0].path).toEqual(['newPassword']);
  });
});

describe('POST /auth/verify-email and /auth/resend-verification', () => {
  it('registration mails a verification link; the token verifies once', async () => {
    const { client, email } = await signUp(app.url);
    // REST's `me` is the spec's id, email, createdAt; whether the address is verified is GraphQL's (issue 36, item 6).
    const verifiedAt = async () => (await client.graphql('{ me { emailVerifiedAt } }')).body.data!.me.emailVerifiedAt;
    expect(await verifiedAt()).toBeNull();
    const token = await tokenFromMail(outbox, email, BASE_URL, '/verify-email');
    const res = await new HttpClient(app.url).post('/api/v1/auth/verify-email', { token });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    const me = await client.get('/api/v1/auth/me');
    expect(Object.keys(me.body.data).sort()).toEqual(['createdAt', 'email', 'id']);
    expect(new Date(await verifiedAt()).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const again = await new HttpClient(app.url).post('/api/v1/auth/verify-email', { token });
    expectError(again, 400, 'VALIDATION_ERROR');
  });

  it('refuses a reset token and garbage', async () => {
    const { email } = await signUp(app.url);
    await new HttpClient(app.url).post('/api/v1/auth/request-password-reset', { email });
    await mailsSent(app);
    const resetToken = await tokenFromMail(outbox, email, BASE_URL, '/reset-password');
    expectError(await new HttpClient(app.url).post('/api/v1/auth/verify-email', { token: resetToken }), 400, 'VALIDATION_ERROR');
    expectError(await new HttpClient(app.url).post('/api/v1/auth/verify-email', { token: 'garbage' }), 400, 'VALIDATION_ERROR');
    const empty = await new HttpClient(app.url).post('/api/v1/auth/verify-email', { token: '' });
    expectError(empty, 400, 'VALIDATION_ERROR');
    expect(empty.body.error.details.errors[0].path).toEqual(['token']);
  });

  it('resend-verification mails a new working link, and answers the same for unknown and verified emails', async () => {
    const { email } = await signUp(app.url);
    await mailsSent(app);
    const before = (await mailsTo(outbox, email)).length;
    const anon = new HttpClient(app.url);
    const known = await anon.post('/api/v1/auth/resend-verification', { email });
    await mailsSent(app);
    const unknown = await anon.post('/api/v1/auth/resend-verification', { email: freshEmail() });
    await mailsSent(app);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    const mails = await mailsTo(outbox, email);
    expect(mails.length).toBe(before + 1);
    const token = await tokenFromMail(outbox, email, BASE_URL, '/verify-email');
    expect((await anon.post('/api/v1/auth/verify-email', { token })).status).toBe(200);
    // Already verified: same answer, no new mail.
    const verified = await anon.post('/api/v1/auth/resend-verification', { email });
    await mailsSent(app);
    expect(verified.body).toEqual(known.body);
    expect((await mailsTo(outbox, email)).length).toBe(before + 1);
  });
});

describe('secrets at rest', () => {
  it('hashes passwords with argon2id', async () => {
    const { id, password } = await signUp(app.url);
    const [row] = await sql(app.databaseUrl, 'select password_hash from users where id = $1', [id]);
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
    expect(row!.password_hash).not.toContain(password);
  });

  it('stores only a SHA-256 of mail tokens', async () => {
    const { id, email } = await signUp(app.url);
    await new HttpClient(app.url).post('/api/v1/auth/request-password-reset', { email });
    await mailsSent(app);
    const tokens = [
      await tokenFromMail(outbox, email, BASE_URL, '/verify-email'),
      await tokenFromMail(outbox, email, BASE_URL, '/reset-password'),
    ];
    const rows = await sql(app.databaseUrl, 'select * from auth_tokens where user_id = $1 order by created_at', [id]);
    expect(rows).toHaveLength(2);
    const dump = JSON.stringify(rows);
    for (const token of tokens) {
      expect(dump).not.toContain(token);
      expect(rows.map((r) => r.token_hash)).toContain(createHash('sha256').update(token).digest('hex'));
    }
  });
});
