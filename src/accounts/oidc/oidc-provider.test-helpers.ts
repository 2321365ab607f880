import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider (oidc-provider, certified) on a free port of this process, with static
 * clients, accounts by id, its development login and consent pages, and one way to misbehave on
 * purpose: an ID token re-signed (with its real key) for another audience.
 */

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface TestProvider {
  issuer: string;
  accounts: Map<string, TestAccount>;
  /** Set to make the token endpoint hand out ID tokens for this audience instead of the client's. */
  tamper: { audience?: string };
  start(clients: TestClient[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Reserves the port first (`port`, or a free one): the service must know the issuer before it starts,
 * the provider the service's redirect URI.
 */
export async function reserveTestProvider(port = 0): Promise<TestProvider> {
  const server: Server = createServer((_req, res) => res.writeHead(503).end());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, TestAccount>();
  const tamper: TestProvider['tamper'] = {};
  return {
    issuer,
    accounts,
    tamper,
    async start(clients) {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
      const provider = new Provider(issuer, {
        clients: clients.map((c) => ({ ...c, grant_types: ['authorization_code'], response_types: ['code'] })),
        jwks: { keys: [jwk] },
        cookies: { keys: ['oidc-test-cookie-key'] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        features: { devInteractions: { enabled: true } },
        pkce: { required: () => true },
        async findAccount(_ctx, id) {
          const account = accounts.get(id);
          if (!account) return undefined;
          return { accountId: id, claims: async () => ({ sub: id, ...account }) };
        },
      });
      provider.use(async (ctx, next) => {
        await next();
        const body = ctx.body as { id_token?: string } | undefined;
        if (tamper.audience && ctx.path === '/token' && body?.id_token) {
          const payload = decodeJwt(body.id_token);
          const id_token = await new SignJWT({ ...payload, aud: tamper.audience }).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(privateKey);
          ctx.body = { ...body, id_token };
        }
      });
      server.removeAllListeners('request');
      server.on('request', provider.callback());
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Cookies of one origin by name (path and expiry aside: enough for one flow in a test). */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  header(url: string): string {
    const jar = this.cookies.get(new URL(url).origin);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  store(url: string, response: Response): void {
    const origin = new URL(url).origin;
    const jar = this.cookies.get(origin) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    this.cookies.set(origin, jar);
  }

  get(url: string, name: string): string | undefined {
    return this.cookies.get(new URL(url).origin)?.get(name);
  }

  set(url: string, name: string, value: string): void {
    const origin = new URL(url).origin;
    const jar = this.cookies.get(origin) ?? new Map<string, string>();
    jar.set(name, value);
    this.cookies.set(origin, jar);
  }
}

/** One request as a browser makes it (its cookies, no redirect followed). */
export async function browserRequest(jar: CookieJar, url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const cookie = jar.header(url);
  const response = await fetch(url, { method: init.method ?? 'GET', body: init.body, redirect: 'manual', headers: { ...(cookie ? { cookie } : {}), ...init.headers } });
  jar.store(url, response);
  return response;
}

/**
 * Walks the provider's pages as the person would (sign in as `accountId`, then consent) from the
 * authorization URL until the provider redirects to `redirectUri`, and returns that URL (code, state).
 */
export async function signInAtProvider(jar: CookieJar, authorizationUrl: string, accountId: string, redirectUri: string): Promise<string> {
  let url = authorizationUrl;
  for (let step = 0; step < 20; step++) {
    const response = await browserRequest(jar, url, { headers: { accept: 'text/html' } });
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (next.startsWith(redirectUri)) return next;
      url = next;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`provider answered ${response.status}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page: ${html.slice(0, 300)}`);
    const form = new URLSearchParams(prompt === 'login' ? { prompt, login: accountId, password: 'any' } : { prompt });
    const submitted = await browserRequest(jar, new URL(action.replace(/&amp;/g, '&'), url).href, { method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' } });
    const after = submitted.headers.get('location');
    if (!after) throw new Error(`provider did not redirect after ${prompt}: ${submitted.status} ${(await submitted.text()).slice(0, 300)}`);
    url = new URL(after, url).href;
    if (url.startsWith(redirectUri)) return url;
  }
  throw new Error('the provider flow did not reach the redirect URI');
}

export const CLIENT = { client_id: 'planner', client_secret: 'planner-secret' };

/** The service's callback under its BASE_URL (what it sends as redirect_uri). */
export function callbackOf(baseUrl: string): string {
  return `${baseUrl}/api/v1/auth/oidc/callback`;
}

/** The settings of a service signing in through `issuer` as the test client, plus `extra`. */
export function oidcEnv(issuer: string, extra: Record<string, string> = {}): Record<string, string> {
  return { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT.client_id, OIDC_CLIENT_SECRET: CLIENT.client_secret, ...extra };
}

export interface FlowResult {
  jar: CookieJar;
  start: Response;
  /** The provider's redirect back to the service (code, state, iss). */
  callbackUrl: string;
  /** The flow cookie as it was before the callback consumed it. */
  flowCookie: string | undefined;
}

/** Starts single sign-on at the service and signs in at the provider, stopping before the callback. */
export async function runToCallback(baseUrl: string, accountId: string, options: { jar?: CookieJar; returnTo?: string } = {}): Promise<FlowResult> {
  const jar = options.jar ?? new CookieJar();
  const query = options.returnTo ? `?returnTo=${encodeURIComponent(options.returnTo)}` : '';
  const start = await browserRequest(jar, `${baseUrl}/api/v1/auth/oidc/start${query}`, { headers: { accept: 'text/html' } });
  if (start.status !== 302) throw new Error(`start answered ${start.status}: ${await start.text()}`);
  const callbackUrl = await signInAtProvider(jar, start.headers.get('location')!, accountId, callbackOf(baseUrl));
  return { jar, start, callbackUrl, flowCookie: jar.get(baseUrl, 'lp_oidc_flow') };
}

/** The callback as an API client makes it (JSON answers), with the jar's cookies. */
export async function callBack(jar: CookieJar, callbackUrl: string): Promise<{ response: Response; body: any; sessionSet: boolean }> {
  const response = await browserRequest(jar, callbackUrl, { headers: { accept: 'application/json' } });
  const text = await response.text();
  const sessionSet = response.headers.getSetCookie().some((c) => /^lp_session=[^;]/.test(c));
  return { response, body: text ? JSON.parse(text) : undefined, sessionSet };
}
