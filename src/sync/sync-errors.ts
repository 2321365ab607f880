import { AppError } from '../core/errors.js';

/**
 * 410 `SYNC_CURSOR_EXPIRED`: the feed cannot answer what changed since this cursor (older than the
 * retention window, from before the feed began, from another server, or a change that named no rows).
 * `details.cursor` is the person's newest cursor: read everything again, then sync from it.
 */
export class SyncCursorExpiredError extends AppError {
  constructor(cursor: string, reason: string) {
    super('SYNC_CURSOR_EXPIRED', 410, `Read everything again, then sync from cursor ${cursor}: ${reason}`, { cursor });
  }
}
