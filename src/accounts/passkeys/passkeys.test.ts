import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../../test/support/db.js';
import { HttpClient, signUp } from '../../../test/support/http-client.js';
import { sharedTestApp, type TestApp } from '../../../test/support/test-app.js';
import { enableTotp } from '../two-factor/two-factor.test-helpers.js';
import { MAX_PASSKEYS } from './passkey-registration.js';
import { SoftAuthenticator } from './soft-authenticator.test-helpers.js';

/**
 * The rules around the ceremonies, with a software passkey (no browser): GraphQL, limits, malformed and
 * spent answers. The ceremonies in a real browser: passkeys.browser.test.ts.
 */

let app: TestApp;
let base: string;
beforeAll(async () => {
  app = await sharedTestApp();
  base = app.server.deps.config.baseUrl;
});

async function addPasskey(client: HttpClient, name = 'Key', authenticator = new SoftAuthenticator()) {
  const options = (await client.post('/api/v1/auth/passkeys/registration/options', {})).body.data.options;
  const res = await client.post('/api/v1/auth/passkeys', { name, response: authenticator.create(options, base) });
  return { res, authenticator };
}

describe('passkeys (software authenticator)', () => {
  it('registers and signs in through GraphQL too, with the RP ID and origin of BASE_URL', async () => {
    const { client, email } = await signUp(app.url);
    const started = await client.graphql('mutation { startPasskeyRegistration { options } }');
    const options = started.body.data!.startPasskeyRegistration.options;
    expect(options.rp).toEqual({ name: 'Life Planner', id: new URL(base).hostname });
    const authenticator = new SoftAuthenticator();
    const finished = await client.graphql('mutation($n: String!, $r: JSONObject!) { finishPasskeyRegistration(name: $n, response: $r) { id name deviceType backedUp transports } }', { n: 'Laptop', r: authenticator.create(options, base) });
    expect(finished.body.errors).toBeUndefined();
    expect(finished.body.data!.finishPasskeyRegistration).toMatchObject({ name: 'Laptop', deviceType: 'singleDevice', backedUp: false, transports: ['internal'] });

    const anonymous = new HttpClient(app.url);
    const signIn = (await anonymous.graphql('mutation { startPasskeySignIn { challengeId options } }')).body.data!.startPasskeySignIn;
    const done = await anonymous.graphql('mutation($c: UUID!, $r: JSONObject!) { finishPasskeySignIn(challengeId: $c, response: $r) { user { email } } }', { c: signIn.challengeId, r: authenticator.get(signIn.options, base) });
    expect(done.body.data!.finishPasskeySignIn.user.email).toBe(email);
    expect(anonymous.cookie).toBeDefined();
    expect((await anonymous.get('/api/v1/auth/me')).body.data.email).toBe(email);
  });

  it('refuses a registration answer that is malformed, for a spent challenge, or for another origin; a name must not be blank', async () => {
    const { client } = await signUp(app.url);
    const malformed = await client.post('/api/v1/auth/passkeys', { name: 'Key', response: { id: 'x' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.errors[0].path).toEqual(['response']);
    const notObject = await client.post('/api/v1/auth/passkeys', { name: 'Key', response: 'text' }, { outsideContract: true });
    expect(notObject.status).toBe(400);

    const options = (await client.post('/api/v1/auth/passkeys/registration/options', {})).body.data.options;
    const blank = await client.post('/api/v1/auth/passkeys', { name: '   ', response: new SoftAuthenticator().create(options, base) });
    expect(blank.status).toBe(400);
    const elsewhere = await client.post('/api/v1/auth/passkeys', { name: 'Key', response: new SoftAuthenticator().create(options, 'https://evil.example') });
    expect(elsewhere.status).toBe(400);
    // The challenge was spent by that refused answer: a good answer to it is refused now.
    const spent = await client.post('/api/v1/auth/passkeys', { name: 'Key', response: new SoftAuthenticator().create(options, base) });
    expect(spent.status).toBe(400);
    expect((await client.get('/api/v1/auth/passkeys')).body.data).toEqual([]);
    // Signed out, none of it is reachable.
    expect((await new HttpClient(app.url).post('/api/v1/auth/passkeys/registration/options', {})).status).toBe(401);
  });

  it(`holds at most ${MAX_PASSKEYS} passkeys per account`, async () => {
    const { client, id } = await signUp(app.url);
    for (let i = 0; i < MAX_PASSKEYS; i++) expect((await addPasskey(client, `Key ${i}`)).res.status).toBe(201);
    const more = await client.post('/api/v1/auth/passkeys/registration/options', {});
    expect(more.status).toBe(400);
    expect(more.body.error.details.rule).toBe('passkey_limit');
    const listed = await client.get('/api/v1/auth/passkeys');
    expect(listed.body.data).toHaveLength(MAX_PASSKEYS);
    expect(listed.body.data[0].name).toBe('Key 0');
    const [row] = await sql(app.databaseUrl, 'select count(*)::int as n from passkeys where user_id = $1', [id]);
    expect(row!.n).toBe(MAX_PASSKEYS);
  });

  it('refuses an unknown or expired challenge id, a removed passkey, and a bad signature, without a cookie', async () => {
    const { client } = await signUp(app.url);
    const { res, authenticator } = await addPasskey(client);
    const anonymous = new HttpClient(app.url);
    const start = async () => (await anonymous.post('/api/v1/auth/passkey-sign-in/options', {})).body.data;

    const unknown = await anonymous.post('/api/v1/auth/passkey-sign-in', { challengeId: '00000000-0000-4000-8000-000000000000', response: authenticator.get((await start()).options, base) });
    expect(unknown.status).toBe(401);
    const expired = await start();
    await sql(app.databaseUrl, `update webauthn_challenges set expires_at = now() - interval '1 second' where id = $1`, [expired.challengeId]);
    expect((await anonymous.post('/api/v1/auth/passkey-sign-in', { challengeId: expired.challengeId, response: authenticator.get(expired.options, base) })).status).toBe(401);

    const forged = await start();
    const answer = authenticator.get(forged.options, base) as any;
    answer.response.signature = Buffer.from(answer.response.signature, 'base64url').reverse().toString('base64url');
    expect((await anonymous.post('/api/v1/auth/passkey-sign-in', { challengeId: forged.challengeId, response: answer })).status).toBe(401);

    expect((await client.delete(`/api/v1/auth/passkeys/${res.body.data.id}`)).status).toBe(200);
    const removed = await start();
    const gone = await anonymous.post('/api/v1/auth/passkey-sign-in', { challengeId: removed.challengeId, response: authenticator.get(removed.options, base) });
    expect(gone.status).toBe(401);
    expect(gone.body.error).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'The passkey could not be verified' });
    expect(anonymous.cookie).toBeUndefined();
  });

  it('as the second factor: another account\'s passkey is a wrong answer that counts, and only the step\'s own passkey opens the session', async () => {
    const alice = await signUp(app.url);
    const { authenticator } = await addPasskey(alice.client);
    await enableTotp(alice.client);
    const mallory = await signUp(app.url);
    const { authenticator: mallorys } = await addPasskey(mallory.client);

    const browser = new HttpClient(app.url);
    const login = await browser.post('/api/v1/auth/login', { email: alice.email, password: alice.password });
    expect(login.body.error).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED', details: { methods: ['totp', 'recovery_code', 'passkey'] } });
    const { challengeToken } = login.body.error.details;
    // Without asking for options first there is no WebAuthn challenge to answer.
    expect((await browser.post('/api/v1/auth/login/second-factor/passkey', { challengeToken, response: authenticator.get({ challenge: 'x' }, base) })).status).toBe(400);

    const first = (await browser.post('/api/v1/auth/login/second-factor/passkey/options', { challengeToken })).body.data.options;
    expect(first.allowCredentials.map((c: { id: string }) => c.id)).toEqual([authenticator.credentialId]);
    const wrong = await browser.post('/api/v1/auth/login/second-factor/passkey', { challengeToken, response: mallorys.get(first, base) });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'INVALID_CREDENTIALS', details: { attemptsLeft: 4 } });
    // That answer spent the WebAuthn challenge: the right passkey needs new options.
    expect((await browser.post('/api/v1/auth/login/second-factor/passkey', { challengeToken, response: authenticator.get(first, base) })).status).toBe(400);
    expect(browser.cookie).toBeUndefined();

    const second = (await browser.post('/api/v1/auth/login/second-factor/passkey/options', { challengeToken })).body.data.options;
    const done = await browser.post('/api/v1/auth/login/second-factor/passkey', { challengeToken, response: authenticator.get(second, base) });
    expect(done.status).toBe(200);
    expect((await browser.get('/api/v1/auth/me')).body.data.email).toBe(alice.email);
  });
});
