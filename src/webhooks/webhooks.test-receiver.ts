import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A test certificate authority and a real HTTPS (or plain HTTP) receiver, shared by the webhook and
 * reminder tests and the benches (no test-runner imports here).
 */

/** A certificate authority made for the test run and a server certificate for 127.0.0.1/localhost it signed. */
export interface TestPki {
  dir: string;
  caFile: string;
  key: string;
  cert: string;
}

export async function createTestPki(): Promise<TestPki> {
  const dir = await mkdtemp(join(tmpdir(), 'lp-webhook-pki-'));
  const p = (name: string) => join(dir, name);
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run(['req', '-x509', ...ec, '-keyout', p('ca.key'), '-out', p('ca.pem'), '-days', '2', '-subj', '/CN=Webhook Test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  run(['req', ...ec, '-keyout', p('server.key'), '-out', p('server.csr'), '-subj', '/CN=localhost']);
  await writeFile(p('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  run(['x509', '-req', '-in', p('server.csr'), '-CA', p('ca.pem'), '-CAkey', p('ca.key'), '-CAcreateserial',
    '-out', p('server.pem'), '-days', '2', '-extfile', p('server.ext')]);
  return { dir, caFile: p('ca.pem'), key: await readFile(p('server.key'), 'utf8'), cert: await readFile(p('server.pem'), 'utf8') };
}

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  at: number;
}

export interface Reply {
  status: number;
  body?: string;
  delayMs?: number;
  /** Holds the answer until this settles (a test acting while an attempt is in flight). */
  until?: Promise<unknown>;
}

/**
 * A real HTTPS receiver on 127.0.0.1 with the test CA's certificate (or a plain HTTP one: a push URL may
 * be http). Each path answers as its responder says (default 200 "ok"); every request is recorded with
 * its raw body bytes.
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly responders = new Map<string, (req: Received, count: number) => Reply>();
  private server!: Server;
  url!: string;

  static async start(pki: TestPki): Promise<Receiver> {
    return Receiver.listen({ pki });
  }

  /** HTTPS with `pki`'s certificate, else plain HTTP; on `port` (a receiver brought back where it was), or a free one. */
  static async listen({ pki, port = 0 }: { pki?: TestPki; port?: number }): Promise<Receiver> {
    const receiver = new Receiver();
    const handle: RequestListener = (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const entry: Received = { path: req.url ?? '/', headers: req.headers, rawBody: Buffer.concat(chunks), at: Date.now() };
        receiver.received.push(entry);
        const count = receiver.received.filter((r) => r.path === entry.path).length;
        const reply = receiver.responders.get(entry.path)?.(entry, count) ?? { status: 200, body: 'ok' };
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(reply.status, { 'content-type': 'text/plain' });
          res.end(reply.body ?? '');
        };
        if (reply.until) void reply.until.finally(send);
        else if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    };
    receiver.server = pki ? createHttpsServer({ key: pki.key, cert: pki.cert, keepAliveTimeout: 30_000 }, handle) : createHttpServer(handle);
    await new Promise<void>((resolve) => receiver.server.listen(port, '127.0.0.1', resolve));
    receiver.url = `${pki ? 'https' : 'http'}://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** A fresh path on this receiver, answering with `responder`. */
  endpoint(responder?: (req: Received, count: number) => Reply): string {
    const path = `/hook/${randomUUID()}`;
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

