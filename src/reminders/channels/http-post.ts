import { request as httpsRequest, Agent } from 'node:https';
import { request as httpRequest, Agent as HttpAgent } from 'node:http';
import type { LookupFunction } from 'node:net';
import { checkHost, guardedLookup, hostOf, UnsafeAddressError, UnresolvableHostError } from '../../webhooks/url-guard.js';

/** Response bodies are kept to this many characters (for the delivery's error). */
const RESPONSE_MAX = 300;

export type PostOutcome =
  | { kind: 'answer'; statusCode: number; body: string; durationMs: number }
  /** No HTTP answer: timeout or network error (worth retrying), or an address the guard refuses (not). */
  | { kind: 'network-error'; error: string; retry: boolean; durationMs: number };

export interface PosterOptions {
  timeoutMs: number;
  allowPrivateUrls: boolean;
}

/**
 * POSTs bytes to a user-given URL (a push URL, a push service endpoint) through the webhooks' SSRF guard:
 * with it on, IP literals are checked before the request and names resolve through `guardedLookup`,
 * which checks and pins the address. Redirects are never followed; the whole exchange is bounded by
 * `timeoutMs`. Keep-alive agents reuse connections to the same server.
 */
export class GuardedPoster {
  private readonly httpsAgent: Agent;
  private readonly httpAgent: HttpAgent;
  private readonly lookup: LookupFunction | undefined;

  constructor(readonly options: PosterOptions) {
    this.lookup = options.allowPrivateUrls ? undefined : guardedLookup();
    this.httpsAgent = new Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: options.timeoutMs + 1000 });
    this.httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 });
  }

  close(): void {
    this.httpsAgent.destroy();
    this.httpAgent.destroy();
  }

  async post(target: string, headers: Record<string, string>, body: Buffer): Promise<PostOutcome> {
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return { kind: 'network-error', error: 'invalid URL', retry: false, durationMs: elapsed() };
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return { kind: 'network-error', error: 'not an http(s) URL', retry: false, durationMs: elapsed() };
    if (!this.options.allowPrivateUrls) {
      try {
        const host = hostOf(url);
        if (/^[\d.]+$|:/.test(host)) await checkHost(host);
      } catch (error) {
        return { kind: 'network-error', error: (error as Error).message, retry: false, durationMs: elapsed() };
      }
    }
    const secure = url.protocol === 'https:';
    return new Promise<PostOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: PostOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          lookup: this.lookup,
          headers: { 'User-Agent': 'life-planner-reminders/1', ...headers, 'Content-Length': String(body.length) },
        },
        (response) => {
          const statusCode = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => finish({ kind: 'answer', statusCode, body: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_MAX), durationMs: elapsed() });
          response.on('data', (chunk: Buffer) => {
            if (size < RESPONSE_MAX * 4) chunks.push(chunk.subarray(0, RESPONSE_MAX * 4 - size));
            size += chunk.length;
            if (size >= RESPONSE_MAX * 4) {
              done();
              response.destroy();
            }
          });
          response.on('end', done);
          response.on('error', done);
          response.on('close', done);
        },
      );
      const timer = setTimeout(() => request.destroy(new Error(`timed out after ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
      request.on('error', (error: Error & { code?: string }) => {
        const unsafe = error instanceof UnsafeAddressError || error.code === 'EUNSAFEADDRESS';
        const message = unsafe || error instanceof UnresolvableHostError ? error.message : error.code ? `${error.code}: ${error.message}` : error.message;
        finish({ kind: 'network-error', error: message, retry: !unsafe, durationMs: elapsed() });
      });
      request.end(body);
    });
  }
}

/** Checks a user-given URL's host against the SSRF guard (at save time); answers the refusal's text, or null. */
export async function refusedHost(url: URL): Promise<string | null> {
  try {
    await checkHost(hostOf(url));
    return null;
  } catch (error) {
    if (error instanceof UnsafeAddressError || error instanceof UnresolvableHostError) return error.message;
    throw error;
  }
}
