import { expect } from 'vitest';
import type { HttpClient } from '../../../test/support/http-client.js';

export const TERMINAL = new Set(['done', 'failed']);

export interface FinishedExport {
  id: string;
  status: string;
  url: string | null;
  /** Every distinct status seen, in order (the 202's first). */
  seen: string[];
}

/** POST /account/export, then GET its state until the job is done or failed. */
export async function runExport(client: HttpClient, timeoutMs = 60_000): Promise<FinishedExport> {
  const started = await client.post('/api/v1/account/export');
  expect(started.status, started.text).toBe(202);
  expect(Object.keys(started.body.data).sort()).toEqual(['id', 'status']);
  const id: string = started.body.data.id;
  const seen = [started.body.data.status as string];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/api/v1/account/export/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['id', 'status', 'url']);
    const { status, url } = res.body.data;
    if (seen[seen.length - 1] !== status) seen.push(status);
    if (TERMINAL.has(status)) return { id, status, url, seen };
    expect(url).toBeNull();
    if (Date.now() > deadline) throw new Error(`export ${id} still ${status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The path and query of an absolute URL (the client adds its own base). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** A GET of raw bytes with the client's cookie. */
export async function getBytes(client: HttpClient, path: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(client.baseUrl + path, { headers: client.cookie ? { cookie: client.cookie } : {} });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

