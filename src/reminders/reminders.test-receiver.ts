import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A plain HTTP receiver for the push URL channel, shared by the reminder tests and the benchmark (no
 * test-runner imports here).
 */

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  at: number;
}

export interface Reply {
  status: number;
  body?: string;
}

/** A plain HTTP receiver on 127.0.0.1 (a push URL may be http). Each path answers as its responder says (default 200). */
export class HttpReceiver {
  readonly received: Received[] = [];
  private readonly responders = new Map<string, (req: Received, count: number) => Reply>();
  private readonly counts = new Map<string, number>();
  private server!: Server;
  url!: string;

  /** On `port` (a receiver brought back where it was), or a free one. */
  static async start(port = 0): Promise<HttpReceiver> {
    const receiver = new HttpReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const entry: Received = { path: req.url ?? '/', headers: req.headers, rawBody: Buffer.concat(chunks), at: Date.now() };
        receiver.received.push(entry);
        const count = (receiver.counts.get(entry.path) ?? 0) + 1;
        receiver.counts.set(entry.path, count);
        const reply = receiver.responders.get(entry.path)?.(entry, count) ?? { status: 200, body: 'ok' };
        res.writeHead(reply.status, { 'content-type': 'text/plain' });
        res.end(reply.body ?? '');
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(port, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  endpoint(responder?: (req: Received, count: number) => Reply): string {
    const path = `/push/${randomUUID()}`;
    if (responder) this.responders.set(path, responder);
    return path;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async waitFor(path: string, count: number, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > deadline) throw new Error(`receiver got ${this.at(path).length} of ${count} requests on ${path}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.at(path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
