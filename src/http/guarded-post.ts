import { request as httpsRequest, Agent } from 'node:https';
import { request as httpRequest, Agent as HttpAgent } from 'node:http';
import type { LookupFunction } from 'node:net';
import { checkHost, guardedLookup, hostOf, UnsafeAddressError, UnresolvableHostError } from './url-guard.js';

export type PostOutcome =
  /** An HTTP answer, whatever its status; `body` is its first `maxBodyChars` characters. */
  | { kind: 'answer'; statusCode: number; body: string; durationMs: number }
  /** No HTTP answer: timeout or network error (worth retrying), or a URL or address refused (not). */
  | { kind: 'network-error'; error: string; retry: boolean; durationMs: number };

export interface GuardedPostOptions {
  /** The whole exchange, connect to last byte. */
  timeoutMs: number;
  /** Off: every address is reachable (tests, a private network on purpose). */
  allowPrivateUrls: boolean;
  userAgent: string;
  /** Characters of a response body kept; no more than four bytes each are read. */
  maxBodyChars: number;
}

/**
 * POSTs bytes to a user-given URL through the SSRF guard (url-guard.ts): with it on, an IP-literal host
 * is checked before the request and names resolve through `guardedLookup`, which checks and pins the
 * address. Redirects are never followed, the whole exchange is bounded by `timeoutMs`, and at most
 * `maxBodyChars` × 4 bytes of an answer are read. Keep-alive agents reuse connections to one server.
 * What a status means (success, retry), the headers and any signature are the caller's.
 */
export class GuardedPost {
  private readonly httpsAgent: Agent;
  private readonly httpAgent: HttpAgent;
  private readonly lookup: LookupFunction | undefined;
  private readonly readBytes: number;

  constructor(private readonly options: GuardedPostOptions) {
    this.lookup = options.allowPrivateUrls ? undefined : guardedLookup();
    this.httpsAgent = new Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: options.timeoutMs + 1000 });
    this.httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 });
    // Enough for maxBodyChars characters of any UTF-8.
    this.readBytes = options.maxBodyChars * 4 + 4;
  }

  close(): void {
    this.httpsAgent.destroy();
    this.httpAgent.destroy();
  }

  async post(target: string, headers: Record<string, string>, body: Buffer): Promise<PostOutcome> {
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    const refused = (error: string): PostOutcome => ({ kind: 'network-error', error, retry: false, durationMs: elapsed() });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return refused('invalid URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return refused('not an http(s) URL');
    if (!this.options.allowPrivateUrls) {
      try {
        // IP literals never reach `lookup`; names are checked (and pinned) there.
        const host = hostOf(url);
        if (/^[\d.]+$|:/.test(host)) await checkHost(host);
      } catch (error) {
        return refused((error as Error).message);
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
          headers: { 'User-Agent': this.options.userAgent, ...headers, 'Content-Length': String(body.length) },
        },
        (response) => {
          const statusCode = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => finish({ kind: 'answer', statusCode, body: this.truncate(Buffer.concat(chunks)), durationMs: elapsed() });
          response.on('data', (chunk: Buffer) => {
            if (size < this.readBytes) chunks.push(chunk.subarray(0, this.readBytes - size));
            size += chunk.length;
            if (size >= this.readBytes) {
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

  /** The first maxBodyChars characters (code points: a cut never splits one). */
  private truncate(bytes: Buffer): string {
    return Array.from(bytes.toString('utf8')).slice(0, this.options.maxBodyChars).join('');
  }
}
