/** PostgreSQL's deadlock_detected: the statement was aborted whole, nothing of it was written. */
const DEADLOCK_DETECTED = '40P01';
/** Attempts at most (PostgreSQL picks one victim per cycle; a second cycle at once is rare). */
const ATTEMPTS = 3;

/**
 * Runs ONE self-contained statement (committed on its own, no transaction around it) again when
 * PostgreSQL aborted it as a deadlock's victim, as its manual advises. Only for a single statement:
 * it was rolled back whole, so running it again writes it once. A statement inside a caller's
 * transaction must not use this (the transaction is aborted; the caller retries it as a whole).
 *
 * Why it happens here: a one-statement write takes its foreign keys' locks at the statement's end, after
 * its change-feed row took the person's version row; a transaction deleting the referenced row (a week
 * and its days) takes the version row at its commit. Each waits on the other for a moment.
 */
export async function retryOnDeadlock<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if (attempt >= ATTEMPTS || (error as { code?: unknown } | null)?.code !== DEADLOCK_DETECTED) throw error;
    }
  }
}
