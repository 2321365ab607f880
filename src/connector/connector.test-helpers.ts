import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { setPlan } from '../../test/support/db.js';
import { SCOPE_AREAS, type ScopeArea } from './scopes/connector-scopes.js';

export const REDIRECT_URI = 'http://127.0.0.1:7777/callback';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The service with BASE_URL set to the address it listens on (the issuer and the /mcp resource). */
export async function startConnectorApp(env: Record<string, string> = {}): Promise<TestApp> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    try {
      return await startTestApp({ PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, ...env });
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}

/** `name="x" value="y"` pairs of a page's hidden inputs. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]!] = match[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  }
  return fields;
}

function cookiePairs(response: Response): string[] {
  return response.headers.getSetCookie().map((c) => c.split(';')[0]!);
}

/** What the person ticks on the consent page: areas and access (default: every area, read and write). */
export interface ConsentChoice {
  areas?: readonly ScopeArea[];
  access?: 'read' | 'write';
}

/**
 * What a browser does on the consent page: GET the authorization URL with the session cookie, then
 * POST the form with `decision` and the ticked areas. Answers the final redirect's Location (the
 * client's redirect URI).
 */
export async function decide(authorizationUrl: URL | string, sessionCookie: string, decision: 'approve' | 'deny' = 'approve', choice: ConsentChoice = {}): Promise<URL> {
  const page = await fetch(authorizationUrl, { headers: { cookie: sessionCookie }, redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${page.headers.get('location') ?? html}`);
  const cookie = [sessionCookie, ...cookiePairs(page)].join('; ');
  const form = new URLSearchParams({ ...hiddenFields(html), decision, access: choice.access ?? 'write' });
  for (const area of choice.areas ?? SCOPE_AREAS) form.append('areas', area);
  const answer = await fetch(new URL('/authorize', authorizationUrl), {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`consent answered ${answer.status}: ${await answer.text()}`);
  return new URL(location);
}

/** An MCP client's OAuth state in memory; the "browser" step approves with the user's session cookie. */
export class TestOAuthClient implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  lastAuthorizationUrl: URL | undefined;
  code: string | undefined;

  constructor(
    private readonly sessionCookie: string,
    readonly metadata: Partial<OAuthClientMetadata> = {},
    readonly choice: ConsentChoice = {},
  ) {}

  get redirectUrl(): string {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Test Assistant', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], ...this.metadata };
  }
  state(): string {
    return 'state-123';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    this.lastAuthorizationUrl = url;
    const back = await decide(url, this.sessionCookie, 'approve', this.choice);
    if (back.searchParams.get('state') !== 'state-123') throw new Error(`state not returned: ${back}`);
    this.code = back.searchParams.get('code') ?? undefined;
    if (!this.code) throw new Error(`no code in ${back}`);
  }
}

/** The SDK client's whole flow: connect, authorize (dynamic registration, PKCE, consent), finish with the code, connect again. */
export async function connectWithOAuth(mcpUrl: string, provider: TestOAuthClient): Promise<Client> {
  const first = new Client({ name: 'test-assistant', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  try {
    await first.connect(transport);
    return first;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  await transport.finishAuth(provider.code!);
  return connectWithToken(mcpUrl, provider);
}

export async function connectWithToken(mcpUrl: string, provider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  return client;
}

/** A raw JSON-RPC call to /mcp with a bearer token (to see the HTTP answer itself). */
export async function rawMcp(mcpUrl: string, token: string | undefined, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/**
 * A signed-up pro user and their assistant, connected through the whole OAuth flow with `choice` on
 * the consent page. The tools are listed once, so the SDK client checks every later call's
 * `structuredContent` against the tool's `outputSchema` (it throws when they disagree).
 */
export async function connectedUser(app: TestApp, choice: ConsentChoice = {}): Promise<{ user: Awaited<ReturnType<typeof signUp>>; client: Client; provider: TestOAuthClient }> {
  const base = app.server.deps.config.baseUrl;
  const user = await signUp(base);
  await setPlan(app.databaseUrl, user.id, 'pro');
  const provider = new TestOAuthClient(user.client.cookie!, {}, choice);
  const client = await connectWithOAuth(`${base}/mcp`, provider);
  await client.listTools();
  return { user, client, provider };
}

/** Calls a tool that must succeed and answers its structured content (the same object as its JSON text). */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${(result.content as { text: string }[])[0]?.text}`);
  const parsed = toolJson(result);
  if (JSON.stringify(parsed) !== JSON.stringify(result.structuredContent)) throw new Error(`${name}: the JSON text and structuredContent differ`);
  return result.structuredContent;
}

/** Calls a tool that must fail and answers its error `{ code, message, details? }`. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ code: string; message: string; details?: any }> {
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError) throw new Error(`${name} did not fail: ${JSON.stringify(result.structuredContent)}`);
  return toolJson(result).error;
}

/** A tool result's JSON text, parsed. */
export function toolJson(result: unknown): any {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return JSON.parse(content[0]!.text);
}
