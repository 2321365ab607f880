import type { SignInPath, SignInUser } from '../../../test/auth/sign-in-paths.js';
import { SoftAuthenticator } from './soft-authenticator.test-helpers.js';

/**
 * The passkey entries of the sign-in paths table (test/auth/sign-in-paths.ts). The account gets its
 * passkey first through a session of its own (password and a recovery code), signed out again so
 * the table counts no session from that setup.
 */

/** As the table's `seen` (not imported: the table imports this file). */
async function seen(response: Response): Promise<{ status: number; setCookie: string[]; text: string; json: any }> {
  const text = await response.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, setCookie: response.headers.getSetCookie(), text, json: parsed };
}

const json = (url: string, body: unknown, cookie?: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body), redirect: 'manual' });

const cookieOf = (answer: { setCookie: string[] }) => answer.setCookie.map((c) => c.split(';')[0]!).find((pair) => pair.startsWith('lp_session=') && pair !== 'lp_session=');

async function withPasskey(base: string, user: SignInUser): Promise<SoftAuthenticator> {
  const login = await seen(await json(`${base}/api/v1/auth/login`, { email: user.email, password: user.password }));
  const second = await seen(await json(`${base}/api/v1/auth/login/second-factor`, { challengeToken: login.json?.error?.details?.challengeToken, recoveryCode: user.recoveryCodes.at(-1) }));
  const cookie = cookieOf(second);
  if (!cookie) throw new Error(`setup sign-in answered ${second.status} ${second.text}`);
  const authenticator = new SoftAuthenticator();
  const options = await seen(await json(`${base}/api/v1/auth/passkeys/registration/options`, {}, cookie));
  const added = await seen(await json(`${base}/api/v1/auth/passkeys`, { name: 'Phone', response: authenticator.create(options.json.data.options, base) }, cookie));
  if (added.status !== 201) throw new Error(`passkey registration answered ${added.status} ${added.text}`);
  await json(`${base}/api/v1/auth/logout`, {}, cookie);
  return authenticator;
}

export const PASSKEY_SIGN_IN_PATHS: SignInPath[] = [
  {
    name: 'Session API: a passkey alone (POST /auth/passkey-sign-in/options, then /auth/passkey-sign-in)',
    operations: ['startPasskeySignIn', 'finishPasskeySignIn'],
    async start({ base, user }) {
      const authenticator = await withPasskey(base, user);
      const options = await seen(await json(`${base}/api/v1/auth/passkey-sign-in/options`, {}));
      const { challengeId, options: request } = options.json.data;
      return {
        before: [options],
        finish: async () => seen(await json(`${base}/api/v1/auth/passkey-sign-in`, { challengeId, response: authenticator.get(request, base) })),
      };
    },
  },
  {
    name: 'Session API: POST /auth/login, then a passkey as the second factor',
    operations: ['login', 'startSecondFactorPasskey', 'completeSignInWithPasskey'],
    async start({ base, user }) {
      const authenticator = await withPasskey(base, user);
      const login = await seen(await json(`${base}/api/v1/auth/login`, { email: user.email, password: user.password }));
      if (!login.json?.error?.details?.methods?.includes('passkey')) throw new Error(`login answered ${login.status} ${login.text}`);
      const challengeToken = login.json.error.details.challengeToken as string;
      const options = await seen(await json(`${base}/api/v1/auth/login/second-factor/passkey/options`, { challengeToken }));
      return {
        before: [login, options],
        finish: async () => seen(await json(`${base}/api/v1/auth/login/second-factor/passkey`, { challengeToken, response: authenticator.get(options.json.data.options, base) })),
      };
    },
  },
];
