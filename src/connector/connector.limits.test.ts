import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { setPlan } from '../../test/support/db.js';
import { connectWithOAuth, rawMcp, startConnectorApp, TestOAuthClient } from './connector.test-helpers.js';
import { MCP_MAX_BATCH } from './mcp/mcp-call-limit.js';

/** Issue 23 item 6: every JSON-RPC message counts against its user's limit, batched or not; batches are bounded. */
const MAX = 60;
let app: TestApp;
let client: Client;
let provider: TestOAuthClient;
let mcpUrl: string;

beforeAll(async () => {
  app = await startConnectorApp({ RATE_LIMIT_MAX: String(MAX) });
  const user = await signUp(app.server.deps.config.baseUrl);
  await setPlan(app.databaseUrl, user.id, 'pro');
  mcpUrl = `${app.server.deps.config.baseUrl}/mcp`;
  provider = new TestOAuthClient(user.client.cookie!);
  client = await connectWithOAuth(mcpUrl, provider);
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

const batch = (size: number) => Array.from({ length: size }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'system_get_current_datetime', arguments: {} } }));

it('refuses a batch of more than the bound whole, and counts each message of a batch against the user', async () => {
  const token = provider.tokens()!.access_token;
  const tooBig = await rawMcp(mcpUrl, token, batch(MCP_MAX_BATCH + 1));
  expect(tooBig.status).toBe(400);
  expect((await tooBig.json()).error).toMatchObject({ code: -32600, message: expect.stringContaining(`${MCP_MAX_BATCH} messages`) });

  let answered = 0;
  let refused: Response | undefined;
  for (let round = 0; round < 10 && !refused; round++) {
    const res = await rawMcp(mcpUrl, token, batch(MCP_MAX_BATCH));
    if (res.status === 429) refused = res;
    else {
      expect(res.status, await res.clone().text()).toBe(200);
      const answers = (await res.json()) as unknown[];
      expect(answers).toHaveLength(MCP_MAX_BATCH);
      answered += answers.length;
    }
  }
  // The connection's own messages (initialize, initialized) counted too: fewer than MAX calls answered.
  expect(answered).toBeLessThan(MAX);
  expect(answered).toBeGreaterThanOrEqual(MAX - 2 * MCP_MAX_BATCH);
  expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(await refused!.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining(`at most ${MAX} calls`) } });
  // The SDK's client sees the refusal as an error, not an answer.
  await expect(client.callTool({ name: 'system_get_current_datetime', arguments: {} })).rejects.toThrow();
});
