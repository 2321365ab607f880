import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';

type ExecutionResult<T> = FormattedExecutionResult<T, unknown>;
import WebSocket from 'ws';

/** One subscription's results as they arrive, and how it ended. */
export interface Followed<T = any> {
  results: ExecutionResult<T>[];
  completed: boolean;
  error: unknown;
  /** Waits until `check` holds for some result (or fails after `ms`). */
  waitFor(check: (result: ExecutionResult<T>) => boolean, ms?: number): Promise<ExecutionResult<T>>;
  stop(): void;
}

export interface LiveClient {
  client: Client;
  /** Close events of the socket(s), in order. */
  closes: { code: number; reason: string }[];
  /** Bytes of each message received, in order (what the server put on the wire per frame). */
  frameBytes: number[];
  follow<T = any>(query: string, variables?: Record<string, unknown>): Followed<T>;
  waitClosed(ms?: number): Promise<{ code: number; reason: string }>;
  dispose(): Promise<void>;
}

/** Polls `check` every 20 ms until it answers a value, or throws after `ms` with `what`. */
export async function eventually<T>(check: () => T | undefined, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A real graphql-ws client on `baseUrl`'s /graphql with the session cookie (and an Origin, if given). */
export function liveClient(baseUrl: string, cookie: string | undefined, options: { origin?: string; retryAttempts?: number } = {}): LiveClient {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (options.origin) headers.origin = options.origin;
  const frameBytes: number[] = [];
  class CookieSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
      this.on('message', (data: Buffer) => void frameBytes.push(data.length));
    }
  }
  const closes: { code: number; reason: string }[] = [];
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: CookieSocket,
    retryAttempts: options.retryAttempts ?? 0,
    lazy: true,
    on: { closed: (event) => void closes.push({ code: (event as { code: number }).code, reason: String((event as { reason?: unknown }).reason ?? '') }) },
  });
  return {
    client,
    closes,
    frameBytes,
    follow<T>(query: string, variables?: Record<string, unknown>): Followed<T> {
      const followed: Followed<T> = {
        results: [],
        completed: false,
        error: undefined,
        waitFor: (check, ms = 3000) => eventually(() => followed.results.find(check), ms, `a result of ${query.slice(0, 60)}`),
        stop: () => unsubscribe(),
      };
      const unsubscribe = client.subscribe<T>({ query, variables }, {
        next: (result) => void followed.results.push(result),
        error: (error) => {
          followed.error = error;
        },
        complete: () => {
          followed.completed = true;
        },
      });
      return followed;
    },
    waitClosed: (ms = 3000) => eventually(() => closes[0], ms, 'the socket to close'),
    dispose: () => Promise.resolve(client.dispose()),
  };
}

/** Opens a raw WebSocket upgrade and answers its HTTP status when refused (or 101 when accepted). */
export function upgradeStatus(baseUrl: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', (error) => reject(error));
  });
}
