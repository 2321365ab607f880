import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { HttpClient, signUp } from '../../test/support/http-client.js';
import { recordStatements } from '../../test/support/statement-counter.js';

// request-password-reset and resend-verification must not tell, by how long they take, whether an
// address has an account. Not a timed test: the two paths are compared by the statements they run
// before answering, and by the answer not waiting for the mail (an SMTP server that holds it).

/** A minimal SMTP server that accepts mail but holds each message's final reply until released. */
function holdingSmtpServer() {
  const received: { text: string; accepted: boolean }[] = [];
  const held: (() => void)[] = [];
  let acceptAll = false;
  const server: Server = createServer((socket: Socket) => {
    let data: string | null = null;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          const message = { text: data + buffer.slice(0, end), accepted: false };
          received.push(message);
          buffer = buffer.slice(end + 5);
          data = null;
          const reply = () => {
            message.accepted = true;
            socket.write('250 queued\r\n');
          };
          if (acceptAll) reply();
          else held.push(reply);
          continue;
        }
        const at = buffer.indexOf('\r\n');
        if (at < 0) return;
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  return {
    received,
    async listen(): Promise<number> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    },
    /** Accepts the messages held so far (and, with `all`, every later one). */
    release(all = false) {
      acceptAll ||= all;
      for (const reply of held.splice(0)) reply();
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const smtp = holdingSmtpServer();
let app: TestApp;
beforeAll(async () => {
  const port = await smtp.listen();
  app = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
});
afterAll(async () => {
  smtp.release(true);
  await app?.close();
  await smtp.close();
});

async function until(condition: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > 20_000) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Lets every mail already asked for go through, and waits until the service has sent them. */
async function settle(): Promise<void> {
  let done = false;
  void app.server.deps.background.idle().then(() => (done = true));
  while (!done) {
    smtp.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The statements the service ran for one request, on the tables of accounts (job polling left out). */
async function statementsOf(send: () => Promise<{ status: number }>): Promise<string[]> {
  const recorder = recordStatements();
  try {
    expect((await send()).status).toBe(200);
  } finally {
    recorder.stop();
  }
  // Values differ (the address, the token); the statements must not. Only the accounts' tables: the job
  // runner's and the webhook dispatcher's polls run on their own timers and land in either window.
  return recorder.statements.filter((s) => /\b"?(users|auth_tokens|login_sessions)"?\b/i.test(s)).map((s) => s.replace(/'(?:[^']|'')*'/g, '?').replace(/\$\d+/g, '?'));
}

describe.each([
  ['/api/v1/auth/request-password-reset', 'reset'],
  ['/api/v1/auth/resend-verification', 'verif'],
])('%s', (path, subject) => {
  it('answers before the mail is sent: a held SMTP server does not hold the answer', async () => {
    const { email } = await signUp(app.url);
    const mailsTo = () => smtp.received.filter((m) => m.text.includes(email));
    await settle();
    expect(mailsTo()).toHaveLength(1);
    const res = await new HttpClient(app.url).post(path, { email });
    expect(res.status).toBe(200);
    // The answer came though the server has not accepted the mail (before the fix it waited for it).
    await until(() => mailsTo().length === 2, 'the mail');
    const mail = mailsTo()[1]!;
    expect(mail.text).toMatch(new RegExp(subject, 'i'));
    expect(mail.accepted).toBe(false);
    await settle();
    expect(mail.accepted).toBe(true);
  });

  it('runs the same statements for a known and an unknown address before answering', async () => {
    const { email } = await signUp(app.url);
    await settle();
    const anon = new HttpClient(app.url);
    const known = await statementsOf(() => anon.post(path, { email }));
    const unknown = await statementsOf(() => anon.post(path, { email: `nobody${Date.now()}@example.com` }));
    expect(known.length).toBeGreaterThan(0);
    expect(unknown).toEqual(known);
    await settle();
  });
});
