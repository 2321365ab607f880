import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { HttpClient, signUp } from '../../../test/support/http-client.js';
import { expectStatus } from '../../../test/support/expectations.js';
import { mailsTo } from '../../../test/support/mailbox.js';
import { enableTotp, freshTimeStep, totpCode, wrongCode } from '../two-factor/two-factor.test-helpers.js';
import type { SecondFactorLockout } from './second-factor-lockout.js';

/*
 * Wrong second factors counted per account (issue 34, item 6), across sign-in steps and client
 * addresses (TRUST_PROXY: each request names its address in X-Forwarded-For). The back-off reads the
 * lockout's clock, which the tests move instead of waiting.
 */
let app: TestApp;
let lockout: SecondFactorLockout;
/** The lockout's clock: frozen at a chosen instant while set, so a slow machine cannot outwait a back-off. */
let clockAt: number | undefined;
let address = 0;

beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: 'true' });
  lockout = app.server.deps.secondFactorLockout;
  lockout.now = () => clockAt ?? Date.now();
});
afterAll(async () => {
  await app?.close();
});
beforeEach(async () => {
  clockAt = undefined;
  await freshTimeStep();
});

/** A client at a new address (documentation range), as a guesser spreading over addresses would be. */
function fromNewAddress(): { http: HttpClient; headers: Record<string, string> } {
  address += 1;
  return { http: new HttpClient(app.url), headers: { 'x-forwarded-for': `198.51.100.${address % 250}` } };
}

/** A new sign-in step (the password is known to the guesser), from a new address. */
async function newStep(email: string, password: string) {
  const { http, headers } = fromNewAddress();
  const res = await http.post('/api/v1/auth/login', { email, password }, { headers });
  expectStatus(res, 401, 'SECOND_FACTOR_REQUIRED');
  const challengeToken = res.body.error.details.challengeToken as string;
  return { answer: (body: Record<string, unknown>) => http.post('/api/v1/auth/login/second-factor', { challengeToken, ...body }, { headers }), http, challengeToken, headers };
}

async function lockMails(email: string) {
  await app.server.deps.background.idle();
  return (await mailsTo(app.server.deps.config.mailOutboxDir, email)).filter((m) => m.subject === 'Sign-in to your account was locked');
}

describe('wrong second factors per account', () => {
  it('locks the account after ten wrong codes over several steps and addresses: the right code is refused everywhere, one mail is sent', async () => {
    const user = await signUp(app.url);
    const { secret } = await enableTotp(user.client);
    // Far enough ahead that the back-off never holds an answer: only the count matters here.
    clockAt = Date.now() + 10 * 60_000;
    let step = await newStep(user.email, user.password);
    for (let wrong = 1; wrong <= 10; wrong++) {
      // Two answers per step, each step from its own address: no step and no address sees more than two.
      if (wrong > 1 && wrong % 2 === 1) step = await newStep(user.email, user.password);
      const res = await step.answer(wrong % 3 === 0 ? { recoveryCode: 'zzzz-zzzz-zzzz-zzzz' } : { code: wrongCode(secret) });
      expectStatus(res, 401, 'INVALID_CREDENTIALS');
    }
    const after = await newStep(user.email, user.password);
    const refused = await after.answer({ code: totpCode(secret) });
    expectStatus(refused, 429, 'SECOND_FACTOR_LOCKED');
    expect(refused.body.error.details.reason).toBe('locked');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(refused.headers.getSetCookie()).toEqual([]);
    // The other ways to answer a step: GraphQL, a passkey's options.
    const graphql = await after.http.graphql('mutation($t: String!, $c: String) { completeSignIn(challengeToken: $t, code: $c) { user { id } } }', { t: after.challengeToken, c: totpCode(secret, 1) });
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'SECOND_FACTOR_LOCKED', status: 429 });
    expect(after.http.cookie).toBeUndefined();
    expectStatus(await after.http.post('/api/v1/auth/login/second-factor/passkey/options', { challengeToken: after.challengeToken }, { headers: after.headers }), 429, 'SECOND_FACTOR_LOCKED');
    // A recovery code neither.
    expectStatus(await (await newStep(user.email, user.password)).answer({ recoveryCode: 'zzzz-zzzz-zzzz-zzzz' }), 429, 'SECOND_FACTOR_LOCKED');

    const mails = await lockMails(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('10 wrong');
  });

  it('counts answers sent together before checking them: 30 at once over six steps, ten are checked, one mail', async () => {
    const user = await signUp(app.url);
    const { secret } = await enableTotp(user.client);
    clockAt = Date.now() + 10 * 60_000;
    const steps = await Promise.all(Array.from({ length: 6 }, () => newStep(user.email, user.password)));
    const answers = await Promise.all(steps.flatMap((step) => Array.from({ length: 5 }, () => step.answer({ code: wrongCode(secret) }))));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(await lockMails(user.email)).toHaveLength(1);
  });

  it('makes the answers after the fifth wait (5 s, then 15 s … from the first), unchecked and uncounted while waiting; a right answer clears the count', async () => {
    const user = await signUp(app.url);
    const { secret } = await enableTotp(user.client);
    const first = await newStep(user.email, user.password);
    expectStatus(await first.answer({ code: wrongCode(secret) }), 401, 'INVALID_CREDENTIALS');
    // The waits count from the first wrong answer, just before t0.
    const t0 = Date.now();
    clockAt = t0;
    for (let i = 0; i < 4; i++) expectStatus(await first.answer({ code: wrongCode(secret) }), 401, 'INVALID_CREDENTIALS');
    // A whole step's wrong answers are taken at once; the sixth too.
    const second = await newStep(user.email, user.password);
    expectStatus(await second.answer({ code: wrongCode(secret) }), 401, 'INVALID_CREDENTIALS');
    const early = await second.answer({ code: totpCode(secret) });
    expectStatus(early, 429, 'SECOND_FACTOR_LOCKED');
    expect(early.body.error.details.reason).toBe('backoff');
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(early.headers.get('retry-after'))).toBeLessThanOrEqual(5);
    // Five seconds later (by the lockout's clock) the next answer is checked: the refused one was not counted.
    clockAt = t0 + 5_000;
    expectStatus(await second.answer({ code: wrongCode(secret) }), 401, 'INVALID_CREDENTIALS');
    expectStatus(await second.answer({ code: wrongCode(secret) }), 429, 'SECOND_FACTOR_LOCKED');
    clockAt = t0 + 15_000;
    const ok = await second.answer({ code: totpCode(secret) });
    expectStatus(ok, 200);
    // The right answer cleared the count: seven wrong answers from now are needed to wait again.
    const third = await newStep(user.email, user.password);
    for (let i = 0; i < 5; i++) expectStatus(await third.answer({ code: wrongCode(secret) }), 401, 'INVALID_CREDENTIALS');
    expect(await lockMails(user.email)).toHaveLength(0);
  });
});
