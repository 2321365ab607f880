import type { Logger } from '../logger.js';
import type { LiveBus } from './live-bus.js';
import type { LiveBatch } from './live-change.js';

/** One open WebSocket or event stream, held to its person's session. */
export interface LiveConnection {
  readonly userId: string;
  readonly sessionId: string;
  close(code: number, reason: string): void;
}

/** Someone on this instance who follows a person's changes (a running subscription). */
export type LiveListener = (batch: LiveBatch | 'gap') => void;

export interface LiveLimits {
  maxSocketsPerUser: number;
  maxSockets: number;
  sessionCheckMs: number;
}

/** Which of these sessions still exist (ended by logout, revocation, a password change or expiry otherwise). */
export type SessionsAlive = (sessionIds: string[]) => Promise<Set<string>>;

/**
 * This instance's side of live updates: the bus's batches go to the listeners of the batch's person
 * only (a map lookup, whatever the number of sockets); the open connections are counted per person and
 * in all, and their sessions are checked every `sessionCheckMs` (one statement for all of them) so a
 * socket does not outlive its session.
 */
export class LiveHub {
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private readonly connections = new Map<string, Set<LiveConnection>>();
  private connectionCount = 0;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;
  private stopped = false;

  constructor(
    readonly bus: LiveBus,
    private readonly limits: LiveLimits,
    private readonly sessionsAlive: SessionsAlive,
    private readonly logger: Logger,
  ) {
    bus.onBatch((batch) => this.deliver(batch));
  }

  /** `listener` hears the committed changes of `userId` (and 'gap' when some may have been missed). */
  listen(userId: string, listener: LiveListener): () => void {
    let mine = this.listeners.get(userId);
    if (!mine) this.listeners.set(userId, (mine = new Set()));
    mine.add(listener);
    return () => {
      mine.delete(listener);
      if (mine.size === 0 && this.listeners.get(userId) === mine) this.listeners.delete(userId);
    };
  }

  /** The bus reconnected: whatever was published meanwhile is lost, so every listener refetches. */
  gap(): void {
    for (const mine of this.listeners.values()) for (const listener of mine) this.call(listener, 'gap');
  }

  /** Admits a connection, or answers why not (too many for this person or this instance). */
  open(connection: LiveConnection): string | null {
    if (this.stopped) return 'The service is shutting down';
    if (this.connectionCount >= this.limits.maxSockets) return 'Too many live connections on this server';
    let mine = this.connections.get(connection.userId);
    if ((mine?.size ?? 0) >= this.limits.maxSocketsPerUser) return `At most ${this.limits.maxSocketsPerUser} live connections per person`;
    if (!mine) this.connections.set(connection.userId, (mine = new Set()));
    mine.add(connection);
    this.connectionCount++;
    this.sweepTimer ??= setInterval(() => void this.sweep(), this.limits.sessionCheckMs).unref();
    return null;
  }

  closed(connection: LiveConnection): void {
    const mine = this.connections.get(connection.userId);
    if (!mine?.delete(connection)) return;
    this.connectionCount--;
    if (mine.size === 0) this.connections.delete(connection.userId);
    if (this.connectionCount === 0) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = undefined;
    }
  }

  get openConnections(): number {
    return this.connectionCount;
  }

  /** Closes every connection (SIGTERM): clients reconnect to another instance. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweepTimer);
    for (const mine of [...this.connections.values()]) for (const connection of [...mine]) connection.close(1001, 'Server shutting down');
    await this.bus.stop();
  }

  private deliver(batch: LiveBatch): void {
    const mine = this.listeners.get(batch.userId);
    if (!mine) return;
    for (const listener of mine) this.call(listener, batch);
  }

  private call(listener: LiveListener, batch: LiveBatch | 'gap'): void {
    try {
      listener(batch);
    } catch (error) {
      this.logger.warn({ err: error }, 'live listener failed');
    }
  }

  /** Closes the connections whose session ended; one statement for all of this instance's sessions. */
  private async sweep(): Promise<void> {
    if (this.sweeping || this.connectionCount === 0) return;
    this.sweeping = true;
    try {
      const all = [...this.connections.values()].flatMap((mine) => [...mine]);
      const alive = await this.sessionsAlive([...new Set(all.map((c) => c.sessionId))]);
      for (const connection of all) if (!alive.has(connection.sessionId)) connection.close(4403, 'Session ended');
    } catch (error) {
      this.logger.warn({ err: error }, 'live session check failed');
    } finally {
      this.sweeping = false;
    }
  }
}
