import { request as httpsRequest, Agent } from 'node:https';
import { request as httpRequest, Agent as HttpAgent } from 'node:http';
import type { LookupFunction } from 'node:net';
import { checkHost, guardedLookup, hostOf, UnsafeAddressError, UnresolvableHostError } from './url-guard.js';
import { signature } from './webhook-secret.js';

/** Response bodies are kept to this many characters (spec). */
export const RESPONSE_BODY_MAX = 1000;
/** Bytes read from a response: enough for 1000 characters of any UTF-8. */
const READ_BYTES = RESPONSE_BODY_MAX * 4 + 4;

export interface SendRequest {
  url: string;
  secret: string;
  event: string;
  deliveryId: string;
  body: string;
}

export type SendOutcome =
  /** 2xx */
  | { kind: 'success'; statusCode: number; responseBody: string; durationMs: number }
  /** Any other HTTP answer: 4xx (no retry), 3xx (redirects are not followed; no retry), 5xx (retry). */
  | { kind: 'http-error'; statusCode: number; responseBody: string; retry: boolean; durationMs: number }
  /** No HTTP answer: timeout or network error (retry), or an address the guard refuses (no retry). */
  | { kind: 'network-error'; error: string; retry: boolean; durationMs: number };

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateUrls: boolean;
}

function truncate(buffer: Buffer): string {
  return Array.from(buffer.toString('utf8')).slice(0, RESPONSE_BODY_MAX).join('');
}

/**
 * POSTs signed webhook bodies. Keep-alive agents reuse connections to the same receiver; with the
 * guard on, every new connection goes through `guardedLookup` (the address is checked and pinned) and
 * an IP-literal host is checked before the request. Redirects are never followed.
 */
export class WebhookSender {
  private readonly httpsAgent: Agent;
  private readonly httpAgent: HttpAgent;
  private readonly lookup: LookupFunction | undefined;

  constructor(private readonly options: SenderOptions) {
    this.lookup = options.allowPrivateUrls ? undefined : guardedLookup();
    this.httpsAgent = new Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: options.timeoutMs + 1000 });
    this.httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 });
  }

  close(): void {
    this.httpsAgent.destroy();
    this.httpAgent.destroy();
  }

  async send(req: SendRequest): Promise<SendOutcome> {
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return { kind: 'network-error', error: 'invalid URL', retry: false, durationMs: elapsed() };
    }
    if (!this.options.allowPrivateUrls) {
      try {
        // IP literals never reach `lookup`; names are checked (and pinned) there.
        const host = hostOf(url);
        if (/^[\d.]+$|:/.test(host)) await checkHost(host);
      } catch (error) {
        return { kind: 'network-error', error: (error as Error).message, retry: false, durationMs: elapsed() };
      }
    }
    const secure = url.protocol === 'https:';
    const payload = Buffer.from(req.body, 'utf8');
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
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
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': String(payload.length),
            'User-Agent': 'life-planner-webhooks/1',
            'X-SVC-Signature': signature(req.secret, payload),
            'X-SVC-Event': req.event,
            'X-SVC-Delivery-Id': req.deliveryId,
          },
        },
        (response) => {
          const statusCode = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => {
            const responseBody = truncate(Buffer.concat(chunks));
            if (statusCode >= 200 && statusCode < 300) finish({ kind: 'success', statusCode, responseBody, durationMs: elapsed() });
            else finish({ kind: 'http-error', statusCode, responseBody, retry: statusCode >= 500, durationMs: elapsed() });
          };
          response.on('data', (chunk: Buffer) => {
            if (size < READ_BYTES) chunks.push(chunk.subarray(0, READ_BYTES - size));
            size += chunk.length;
            if (size >= READ_BYTES) {
              done();
              response.destroy();
            }
          });
          response.on('end', done);
          response.on('error', done);
          response.on('close', done);
        },
      );
      const timer = setTimeout(() => {
        request.destroy(new Error(`timed out after ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      request.on('error', (error: Error & { code?: string }) => {
        const unsafe = error instanceof UnsafeAddressError || error.code === 'EUNSAFEADDRESS';
        const message = unsafe || error instanceof UnresolvableHostError ? error.message : error.code ? `${error.code}: ${error.message}` : error.message;
        finish({ kind: 'network-error', error: message, retry: !unsafe, durationMs: elapsed() });
      });
      request.end(payload);
    });
  }
}
