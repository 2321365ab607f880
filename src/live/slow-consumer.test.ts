import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { dropSlowConsumer, SLOW_CONSUMER } from './slow-consumer.js';

/** A real `ws` server and client on a loopback port; the server side's socket guarded with `budget`. */
async function pair(budget: number): Promise<{ server: WebSocket; client: WebSocket; closed: Promise<number> }> {
  const http: Server = createServer();
  servers.push(http);
  const wss = new WebSocketServer({ server: http });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`, { maxPayload: 64 * 1024 * 1024 });
  const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
  const server = await accepted;
  sockets.push(client, server);
  dropSlowConsumer(server, budget);
  return { server, client, closed };
}

const servers: Server[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  for (const http of servers.splice(0)) await new Promise((resolve) => http.close(resolve));
});

describe('the slow-consumer guard of a live socket', () => {
  it('checks after the send: a frame that leaves more than the budget unsent closes the socket at once (1013), not at a next event', async () => {
    const { server, closed } = await pair(64 * 1024);
    // 32 MB cannot all be handed to the kernel at once: most of it stays in the socket's buffer.
    server.send('x'.repeat(32 * 1024 * 1024));
    expect(server.readyState).toBe(WebSocket.CLOSING);
    expect(await closed).toBe(SLOW_CONSUMER.code);
  });

  it('leaves a socket that keeps up open', async () => {
    const { server, client } = await pair(64 * 1024);
    const received = new Promise<number>((resolve) => client.once('message', (data: Buffer) => resolve(data.length)));
    server.send('y'.repeat(16 * 1024));
    expect(server.readyState).toBe(WebSocket.OPEN);
    expect(await received).toBe(16 * 1024);
    expect(server.readyState).toBe(WebSocket.OPEN);
  });
});
