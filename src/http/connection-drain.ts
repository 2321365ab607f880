import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Closes an HTTP server without cutting off a request (SIGTERM under keep-alive load).
 *
 * Why not plain `server.close()`: since Node 19 it also destroys every idle keep-alive connection at
 * once, and a client may already have sent its next request on one of them (it gets a reset). And a
 * connection that stays busy is never closed, so under steady load the server never finishes closing.
 * Here the listener closes at once (new connections are refused), every response still to be sent,
 * in flight or arriving on an open connection, says `Connection: close` (the client opens no further
 * request on it and Node closes it after the response), and connections that stayed idle through
 * the drain are closed when it ends. `http-terminator` and `stoppable` were considered: both destroy
 * idle connections at once, the race this avoids.
 */
export class ConnectionDrain {
  private draining = false;
  private readonly inFlight = new Set<ServerResponse>();

  constructor(private readonly server: Server) {
    // Before the application's listener, so the header is set before any handler answers.
    server.prependListener('request', (_req, res: ServerResponse) => {
      if (this.draining) {
        res.setHeader('connection', 'close');
        return;
      }
      this.inFlight.add(res);
      res.once('close', () => this.inFlight.delete(res));
    });
  }

  /** Resolves once every connection is closed: early when all were busy, at most `drainMs` plus the longest request otherwise. */
  close(drainMs: number): Promise<void> {
    this.draining = true;
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
    this.inFlight.clear();
    return new Promise<void>((resolve) => {
      let sweeper: NodeJS.Timeout | undefined;
      const timer = setTimeout(() => {
        // The drain is over: the http close (idle connections, its timeout checks), then any connection
        // that turns idle after a long response.
        this.server.close();
        sweeper = setInterval(() => this.server.closeIdleConnections(), 100);
      }, drainMs);
      // net.Server's own close stops listening and calls back once the last connection has closed,
      // without http.Server's immediate destruction of idle connections.
      NetServer.prototype.close.call(this.server, () => {
        clearTimeout(timer);
        clearInterval(sweeper);
        resolve();
      });
    });
  }
}
