import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp } from '../../../test/support/http-client.js';
import { sql } from '../../../test/support/db.js';
import { enableTotp, freshTimeStep, totpCode } from '../two-factor/two-factor.test-helpers.js';
import { browserRequest, callBack, callbackOf, CookieJar, oidcEnv, reserveTestProvider, runToCallback, CLIENT, type TestProvider } from './oidc-provider.test-helpers.js';

/**
 * An account whose email the provider names is never linked by the email alone: the person proves its
 * password (and, with two-factor sign-in on, the second factor) before the identity is linked.
 */
let idp: TestProvider;
let app: TestApp;
let base: string;

beforeAll(async () => {
  idp = await reserveTestProvider();
  // Auto-create is on: an existing account still needs its password.
  app = await startTestApp(oidcEnv(idp.issuer, { OIDC_AUTO_CREATE: 'true' }));
  base = app.server.deps.config.baseUrl;
  await idp.start([{ ...CLIENT, redirect_uris: [callbackOf(base)] }]);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await idp?.close();
});

const identitiesOf = (userId: string) => sql(app.databaseUrl, 'select subject from oidc_identities where user_id = $1', [userId]);
const sessionsOf = async (userId: string) => (await sql(app.databaseUrl, 'select count(*)::int as n from login_sessions where user_id = $1', [userId]))[0]!.n as number;

async function postLink(jar: CookieJar, body: unknown) {
  const response = await browserRequest(jar, `${base}/api/v1/auth/oidc/link`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', accept: 'application/json' } });
  return { response, body: await response.json(), sessionSet: response.headers.getSetCookie().some((c) => /^lp_session=[^;]/.test(c)) };
}

/** An existing account, and the provider's account with the same email, up to the 409 OIDC_LINK_REQUIRED. */
async function pendingLink(subject: string) {
  const user = await signUp(base);
  idp.accounts.set(subject, { email: user.email.toUpperCase(), email_verified: true });
  const flow = await runToCallback(base, subject, { returnTo: '/journal' });
  const answer = await callBack(flow.jar, flow.callbackUrl);
  expect(answer.response.status, JSON.stringify(answer.body)).toBe(409);
  expect(answer.body.error).toMatchObject({ code: 'OIDC_LINK_REQUIRED', details: { email: user.email } });
  expect(answer.sessionSet).toBe(false);
  return { user, jar: flow.jar, linkToken: answer.body.error.details.linkToken as string };
}

describe('linking an existing account', { timeout: 60_000 }, () => {
  it('links only after the password: a wrong one links nothing and signs nobody in', async () => {
    const { user, jar, linkToken } = await pendingLink('carol');
    const sessionsBefore = await sessionsOf(user.id);
    const wrong = await postLink(jar, { linkToken, password: 'not the password' });
    expect(wrong.response.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(wrong.sessionSet).toBe(false);
    expect(await identitiesOf(user.id)).toEqual([]);
    // The token alone, from another browser (no link cookie), links nothing either.
    const elsewhere = await postLink(new CookieJar(), { linkToken, password: user.password });
    expect(elsewhere.response.status).toBe(400);
    expect(elsewhere.body.error.details.reason).toBe('link_invalid');
    expect(await sessionsOf(user.id)).toBe(sessionsBefore);

    const linked = await postLink(jar, { linkToken, password: user.password });
    expect(linked.response.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.data).toEqual({ user: { id: user.id, email: user.email, emailVerifiedAt: null }, redirectTo: `${base}/journal` });
    expect(linked.sessionSet).toBe(true);
    expect(await identitiesOf(user.id)).toEqual([{ subject: 'carol' }]);
    expect((await (await browserRequest(jar, `${base}/api/v1/auth/me`)).json()).data.id).toBe(user.id);

    // From now on the provider alone signs in.
    const next = await runToCallback(base, 'carol');
    const signedIn = await callBack(next.jar, next.callbackUrl);
    expect(signedIn.response.status).toBe(302);
    expect(signedIn.sessionSet).toBe(true);
  });

  it('with two-factor sign-in on, asks for the shared second step before linking; signed in through it, links', async () => {
    const user = await signUp(base);
    const { secret } = await enableTotp(user.client);
    await freshTimeStep();
    idp.accounts.set('dave', { email: user.email, email_verified: true });
    const flow = await runToCallback(base, 'dave');
    const pending = await callBack(flow.jar, flow.callbackUrl);
    expect(pending.response.status).toBe(409);
    const { jar } = flow;
    const linkToken = pending.body.error.details.linkToken as string;
    const sessionsBefore = await sessionsOf(user.id);

    const step = await postLink(jar, { linkToken, password: user.password });
    expect(step.response.status).toBe(401);
    expect(step.body.error).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED', details: { methods: expect.arrayContaining(['totp']) } });
    expect(step.sessionSet).toBe(false);
    expect(await identitiesOf(user.id)).toEqual([]);
    expect(await sessionsOf(user.id)).toBe(sessionsBefore);

    // The shared second step (the TOTP module's route) signs in; then the same request links.
    const second = await browserRequest(jar, `${base}/api/v1/auth/login/second-factor`, {
      method: 'POST',
      body: JSON.stringify({ challengeToken: step.body.error.details.challengeToken, code: totpCode(secret) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(second.status, await second.clone().text()).toBe(200);
    expect(await sessionsOf(user.id)).toBe(sessionsBefore + 1);
    const linked = await postLink(jar, { linkToken, password: user.password });
    expect(linked.response.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.sessionSet).toBe(false);
    expect(await identitiesOf(user.id)).toEqual([{ subject: 'dave' }]);
    expect(await sessionsOf(user.id)).toBe(sessionsBefore + 1);
  });

  it('refuses a link token that is forged, and a missing field', async () => {
    const { jar } = await pendingLink('erin');
    const forged = await postLink(jar, { linkToken: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..x.y.z', password: 'x' });
    expect(forged.response.status).toBe(400);
    expect(forged.body.error.details.reason).toBe('link_invalid');
    const missing = await postLink(jar, { linkToken: 'x' });
    expect(missing.response.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_ERROR');
  });
});
