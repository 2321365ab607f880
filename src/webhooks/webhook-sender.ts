import { GuardedPost } from '../http/guarded-post.js';
import { signature } from './webhook-secret.js';

/** Response bodies are kept to this many characters (spec). */
export const RESPONSE_BODY_MAX = 1000;

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

/**
 * POSTs signed webhook bodies through the guarded POST (src/http/guarded-post.ts: SSRF guard, timeout,
 * response cap, no redirects). The webhooks' own part: the four headers, the signature over the exact
 * bytes, and what a status means.
 */
export class WebhookSender {
  private readonly post: GuardedPost;

  constructor(options: SenderOptions) {
    this.post = new GuardedPost({ ...options, userAgent: 'life-planner-webhooks/1', maxBodyChars: RESPONSE_BODY_MAX });
  }

  close(): void {
    this.post.close();
  }

  async send(req: SendRequest): Promise<SendOutcome> {
    const payload = Buffer.from(req.body, 'utf8');
    const outcome = await this.post.post(
      req.url,
      {
        'Content-Type': 'application/json',
        'X-SVC-Signature': signature(req.secret, payload),
        'X-SVC-Event': req.event,
        'X-SVC-Delivery-Id': req.deliveryId,
      },
      payload,
    );
    if (outcome.kind === 'network-error') return outcome;
    const { statusCode, body: responseBody, durationMs } = outcome;
    if (statusCode >= 200 && statusCode < 300) return { kind: 'success', statusCode, responseBody, durationMs };
    return { kind: 'http-error', statusCode, responseBody, retry: statusCode >= 500, durationMs };
  }
}
