/**
 * The run of a due-row claim loop: on a nudge, `step` runs again and again while it answers true (it
 * claimed a full batch: more may be due at once). A nudge during a run makes one more run right after
 * it, so rows that came due meanwhile are not left for the next poll; two runs never overlap. The
 * engines' claim loops (webhook outbox dispatch, reminder sends) run on it; what a step claims, its
 * lease and its policy are theirs.
 */
export class NudgedLoop {
  private running: Promise<void> | undefined;
  private again = false;
  private stopping = false;

  constructor(
    private readonly step: () => Promise<boolean>,
    /** A run that threw ends there; the next nudge starts afresh. */
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Runs now, or once more right after the run in progress. */
  nudge(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopping && (await this.step()));
        } while (this.again && !this.stopping);
      } catch (error) {
        this.onError(error);
      } finally {
        this.running = undefined;
      }
    })();
  }

  get stopped(): boolean {
    return this.stopping;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Nothing new starts; resolves once the run in progress has ended. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.settled();
  }

  /** Resolves once the run in progress (if any) has ended. */
  async settled(): Promise<void> {
    await this.running;
  }
}
