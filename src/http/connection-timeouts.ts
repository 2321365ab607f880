import type { Server } from 'node:http';
import type { HttpTimeoutSettings } from '../core/config.js';

/**
 * Idle and header timeouts of the HTTP server (HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_HEADERS_TIMEOUT_MS).
 * Node keeps an idle connection 5 s by default; a proxy in front (60 s idle timeout) or a pooling client
 * whose event loop is late then sends a request on a connection the service is closing, and gets a
 * reset (a 502 behind a proxy, ECONNRESET in the tests: issue 34, item 16). Kept longer than the proxy's,
 * the proxy closes first. Each answer says `Keep-Alive: timeout=<s>`, so a client drops the connection
 * before the service does; an expired one is ended by Node with a FIN, never reset, and on shutdown
 * connection-drain.ts answers what arrives with `Connection: close` before closing what stayed idle.
 */
export function applyConnectionTimeouts(server: Server, settings: HttpTimeoutSettings): void {
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  // Node's advice: above the keep-alive timeout, so a request arriving at the end of the idle time has its full window.
  server.headersTimeout = settings.headersTimeoutMs;
}
