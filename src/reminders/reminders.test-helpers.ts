import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import { mondayOf } from '../core/dates.js';
import type { HttpClient } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import { generateWeek } from '../../test/support/fixtures.js';

/*
 * Real receivers for the reminder channels: an HTTP push-URL receiver, a Web Push subscription's key
 * pair (to decrypt what a push service would forward) with a VAPID check, and an SMTP server.
 */

export { Receiver, type Received, type Reply } from '../webhooks/webhooks.test-receiver.js';
export { eventually } from '../../test/support/eventually-answers.js';

/** A browser's side of a Web Push subscription: its P-256 key pair and authentication secret. */
export interface BrowserKeys {
  ecdh: ECDH;
  p256dh: string;
  auth: string;
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/** What PushSubscription.toJSON() gives a page. */
export function subscriptionJson(endpoint: string, keys: BrowserKeys) {
  return { endpoint, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** Decrypts an aes128gcm push body (RFC 8291) with the subscription's private key and auth secret. */
export function decryptPush(body: Buffer, keys: BrowserKeys): any {
  return JSON.parse(ece.decrypt(body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth }).toString('utf8'));
}

/**
 * Checks a VAPID Authorization header (RFC 8292): `vapid t=<JWT>, k=<public key>`, the JWT signed ES256
 * by that key, `aud` the push service's origin, `exp` within 24 hours, `sub` a mailto: or https: URL.
 * Answers the key and claims.
 */
export function checkVapid(header: string | string[] | undefined, audience: string): { k: string; claims: { aud: string; exp: number; sub: string } } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(String(header));
  expect(match, `Authorization: ${String(header)}`).not.toBeNull();
  const [, token, k] = match!;
  const [head, payload, signature] = token!.split('.') as [string, string, string];
  expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toMatchObject({ typ: 'JWT', alg: 'ES256' });
  const point = Buffer.from(k!, 'base64url');
  expect(point.length).toBe(65);
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  const valid = verify('sha256', Buffer.from(`${head}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  expect(valid, 'the VAPID JWT is signed by the key in k=').toBe(true);
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  expect(claims.aud).toBe(audience);
  expect(claims.exp * 1000).toBeGreaterThan(Date.now());
  expect(claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
  expect(claims.sub).toMatch(/^(mailto:|https:)/);
  return { k: k!, claims };
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server (smtp-server) on 127.0.0.1 (`port`, or a free one), no TLS, no authentication: every message is kept. */
export async function startSmtp(port = 0): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${bound}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A task on the user's day `date` (its week generated), through the API. */
export async function taskOn(client: HttpClient, date: string, title = 'Write the report', extra: Record<string, unknown> = {}): Promise<any> {
  const week = await generateWeek(client, mondayOf(date));
  const day = week.days.find((d: { date: string }) => d.date === date);
  const res = await client.post('/api/v1/tasks', { title, timebox: 30, dayId: day.id, ...extra });
  if (res.status !== 201) throw new Error(`task creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function setTimezone(client: HttpClient, timezone: string): Promise<void> {
  const res = await client.patch('/api/v1/settings', { timezone });
  if (res.status !== 200) throw new Error(`settings failed: ${res.status} ${res.text}`);
}

export async function createReminder(client: HttpClient, body: Record<string, unknown>): Promise<any> {
  const res = await client.post('/api/v1/reminders', body);
  if (res.status !== 201) throw new Error(`reminder creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function setPushUrl(client: HttpClient, pushUrl: string | null): Promise<void> {
  const res = await client.patch('/api/v1/notifications/settings', { pushUrl });
  if (res.status !== 200) throw new Error(`notification settings failed: ${res.status} ${res.text}`);
}

/**
 * Makes reminders due now (their occurrence and key kept), as if their time had come: a second ago on
 * this process's clock, the one the scanner reads (not the database's, which may drift from it in a VM).
 */
export async function makeDue(databaseUrl: string, reminderIds: string[]): Promise<void> {
  await sql(databaseUrl, `update reminders set next_due_at = $2 where id = any($1::uuid[])`, [reminderIds, new Date(Date.now() - 1000)]);
}

export async function verifyEmail(databaseUrl: string, userId: string): Promise<void> {
  await sql(databaseUrl, 'update users set email_verified_at = now() where id = $1', [userId]);
}

export function tomorrowUtc(days = 1): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
