import { hiddenFields } from '../../src/connector/connector.test-helpers.js';
import { totpCode } from '../../src/accounts/two-factor/two-factor.test-helpers.js';
import { PASSKEY_SIGN_IN_PATHS } from '../../src/accounts/passkeys/passkey-sign-in-paths.test-helpers.js';

/**
 * Every way to sign in, as a table (issue 28): each path signs in an account that has two-factor on,
 * stopping before the last factor, then finishes. `test/auth/sign-in-paths.test.ts` checks that no
 * answer before the finish sets the session cookie or writes a session row, and that the finish does.
 * A new sign-in path (passkeys, OpenID Connect, …) adds its entry here; the test fails for an
 * anonymous mutation answering `AuthPayload` that no entry names in `operations`.
 */

/** What a path saw of one HTTP answer. */
export interface SeenAnswer {
  status: number;
  setCookie: string[];
}

export interface SignInUser {
  id: string;
  email: string;
  password: string;
  /** The authenticator's base32 secret; the time step before now was used to enrol. */
  totpSecret: string;
  recoveryCodes: string[];
}

export interface SignInPathContext {
  /** The service's base URL (BASE_URL is this address, so the connector's pages work). */
  base: string;
  /** A fresh account with a password and TOTP on (one per path: a code's time step works once). */
  user: SignInUser;
  /** A registered connector client (redirect URI `connectorRedirectUri`), for the connector's sign-in. */
  connectorClientId: string;
  connectorRedirectUri: string;
}

export interface SignInAttempt {
  /** Every answer before the last factor passed: none may set the session. */
  before: SeenAnswer[];
  /** Passes the last factor; its answer must set the session cookie. */
  finish(): Promise<SeenAnswer>;
}

export interface SignInPath {
  name: string;
  /** The GraphQL mutations this path runs (directly or behind its REST route or page). */
  operations: string[];
  start(ctx: SignInPathContext): Promise<SignInAttempt>;
}

export async function seen(response: Response): Promise<SeenAnswer & { text: string; json: any }> {
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, setCookie: response.headers.getSetCookie(), text, json };
}

const post = (url: string, body: unknown, cookie?: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body), redirect: 'manual' });

/** Password then a second-factor answer, through one Session API base path. */
function restPath(name: string, apiBase: string, answer: (user: SignInUser) => Record<string, string>): SignInPath {
  return {
    name,
    operations: ['login', 'completeSignIn'],
    async start({ base, user }) {
      const login = await seen(await post(`${base}${apiBase}/auth/login`, { email: user.email, password: user.password }));
      if (login.json?.error?.code !== 'SECOND_FACTOR_REQUIRED') throw new Error(`${name}: login answered ${login.status} ${login.text}`);
      const challengeToken = login.json.error.details.challengeToken as string;
      return {
        before: [login],
        finish: async () => seen(await post(`${base}${apiBase}/auth/login/second-factor`, { challengeToken, ...answer(user) })),
      };
    },
  };
}

const graphql = (base: string, query: string, variables: Record<string, unknown>) => post(`${base}/graphql`, { query, variables });

export const SIGN_IN_PATHS: SignInPath[] = [
  restPath('Session API: POST /auth/login, then the authenticator code', '/api/v1', (user) => ({ code: totpCode(user.totpSecret) })),
  restPath('Session API: POST /auth/login, then a recovery code', '/api/v1', (user) => ({ recoveryCode: user.recoveryCodes[0]! })),
  restPath('deprecated /api: POST /api/auth/login, then the authenticator code', '/api', (user) => ({ code: totpCode(user.totpSecret) })),
  {
    name: 'GraphQL: login, then completeSignIn',
    operations: ['login', 'completeSignIn'],
    async start({ base, user }) {
      const login = await seen(await graphql(base, 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { user { id } } }', { e: user.email, p: user.password }));
      const error = login.json?.errors?.[0];
      if (error?.extensions?.code !== 'SECOND_FACTOR_REQUIRED') throw new Error(`GraphQL login answered ${login.text}`);
      return {
        before: [login],
        finish: async () =>
          seen(await graphql(base, 'mutation($t: String!, $c: String) { completeSignIn(challengeToken: $t, code: $c) { user { id } } }', { t: error.extensions.details.challengeToken, c: totpCode(user.totpSecret) })),
      };
    },
  },
  {
    name: "the assistant connector's sign-in form, then its code page",
    operations: ['login', 'completeSignIn'],
    async start({ base, user, connectorClientId, connectorRedirectUri }) {
      const params = new URLSearchParams({ response_type: 'code', client_id: connectorClientId, redirect_uri: connectorRedirectUri, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 'paths', resource: `${base}/mcp` });
      const page = await seen(await fetch(`${base}/authorize?${params}`, { redirect: 'manual' }));
      const csrfCookie = page.setCookie.map((c) => c.split(';')[0]).join('; ');
      const form = (fields: Record<string, string>) =>
        fetch(`${base}/authorize`, { method: 'POST', headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
      const password = await seen(await form({ ...hiddenFields(page.text), email: user.email, password: user.password }));
      const fields = hiddenFields(password.text);
      if (fields.form !== 'second-factor') throw new Error(`connector sign-in answered ${password.status} ${password.text}`);
      return {
        before: [page, password],
        finish: async () => seen(await form({ ...fields, code: totpCode(user.totpSecret) })),
      };
    },
  },  // A passkey alone, and a passkey as the second factor (src/accounts/passkeys).
  ...PASSKEY_SIGN_IN_PATHS,
];

/**
 * Anonymous mutations answering AuthPayload that start no session, so no path walks them. Registering
 * makes a new account, which has no second factor yet (its own test checks it cannot reach an existing
 * account's session).
 */
export const NOT_SIGN_IN_PATHS: Record<string, string> = {
  verifyEmail: 'answers the user whose address it verified; sets no cookie',
  register: 'a new account has no second factor; an existing address is refused (tested beside the paths)',
};
