/** A failure older than this no longer marks the push services degraded. */
export const PUSH_HEALTH_WINDOW_MS = 5 * 60_000;

export interface PushHealthReport {
  state: 'up' | 'degraded';
  lastSuccessAt?: string;
  lastFailureAt?: string;
}

/**
 * How the push services (Web Push endpoints and push URLs, chosen by each browser or person) answered
 * this instance's recent deliveries. They are many and not ours to probe, so /readyz reports what the
 * last real sends saw: `degraded` while a send within PUSH_HEALTH_WINDOW_MS could not reach its push
 * service (network error, timeout, 429, 5xx) and none has reached one since; `up` otherwise. Only
 * instants, never an address: /readyz is public.
 */
export class PushDeliveryHealth {
  private lastSuccessAt: number | undefined;
  private lastFailureAt: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** One send's outcome: reached its push service (`true`), or is to be retried (`false`). */
  record(reached: boolean): void {
    if (reached) this.lastSuccessAt = this.now();
    else this.lastFailureAt = this.now();
  }

  report(): PushHealthReport {
    const failure = this.lastFailureAt;
    const success = this.lastSuccessAt;
    const degraded = failure !== undefined && this.now() - failure < PUSH_HEALTH_WINDOW_MS && (success === undefined || success < failure);
    return {
      state: degraded ? 'degraded' : 'up',
      ...(success !== undefined && { lastSuccessAt: new Date(success).toISOString() }),
      ...(failure !== undefined && { lastFailureAt: new Date(failure).toISOString() }),
    };
  }
}
