import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Slots } from '../core/concurrency-slots.js';
import type { AppDeps } from '../core/context.js';
import { inTransaction } from '../core/database/transaction.js';
import type { Logger } from '../core/logger.js';
import { REMINDER_KIND_IMPLEMENTATIONS } from './kinds/index.js';
import { quietHoursEnd } from './quiet-hours.js';
import { kindContext, type ReminderOccurrence, type ReminderSpec } from './reminder-kind.js';
import { insertDeliveriesAndAdvance, lockDueReminders, type Advance, type DueReminder, type NewDelivery } from './reminder-engine.queries.js';

/** Reminders claimed per transaction. */
export const SCAN_BATCH = 200;
/** A reminder whose next occurrence could not be computed (an error) is asked again after this long. */
const RETRY_NEXT_MS = 60_000;

export interface ScannerOptions {
  pool: pg.Pool;
  /**
   * The composed app's parts, which the kinds' services are made from (serviceFor). A function: this
   * engine is one of them, so they are read when a kind runs, once the composition is complete.
   */
  deps(): AppDeps;
  logger: Logger;
  /** Bounds the kinds' reads on the ORM's pool (shared with the requests). */
  kindSlots: Slots;
  /** Deliveries were committed; the first of them may be sent at `firstSendAt`. */
  onDeliveries(firstSendAt: Date): void;
}

/**
 * Turns due reminders into deliveries, in committed batches: one transaction locks up to SCAN_BATCH rows
 * `WHERE active AND next_due_at <= horizon ORDER BY next_due_at FOR UPDATE SKIP LOCKED` (instances share the
 * work and never take the same row), inserts each occurrence's delivery (`on conflict do nothing`: the
 * (reminder, key) pair is the idempotency key), asks the kind for the next occurrence and moves
 * `next_due_at` there (null: none left), then commits. A crash before the commit leaves everything as it
 * was; after it, the deliveries are in the table and the dispatcher (or another instance's) sends them.
 */
export class ReminderScanner {
  constructor(private readonly options: ScannerOptions) {}

  /**
   * Claims every reminder due by `horizon` (now, or a little ahead: its delivery then waits for its due
   * time), batch after batch. Answers how many were claimed.
   */
  async run(now: Date, horizon: Date, stopping: () => boolean = () => false): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.claimBatch(now, horizon);
      total += claimed;
      if (claimed < SCAN_BATCH || stopping()) return total;
    }
  }

  private async claimBatch(now: Date, horizon: Date): Promise<number> {
    let firstSendAt: Date | null = null;
    const claimed = await inTransaction(this.options.pool, async (client) => {
      const due = await lockDueReminders(client, horizon, SCAN_BATCH);
      if (!due.length) return 0;
      const deliveries: NewDelivery[] = [];
      const advances: Advance[] = [];
      await Promise.all(
        due.map((reminder) =>
          this.options.kindSlots.run(async () => {
            const { delivery, advance } = await this.plan(reminder, now);
            if (delivery) deliveries.push(delivery);
            advances.push(advance);
          }),
        ),
      );
      ({ firstSendAt } = await insertDeliveriesAndAdvance(client, deliveries, advances, now));
      return due.length;
    });
    if (firstSendAt) this.options.onDeliveries(firstSendAt);
    return claimed;
  }

  /** The delivery of the reminder's due occurrence, and where the reminder goes next. */
  private async plan(reminder: DueReminder, now: Date): Promise<{ delivery: NewDelivery | null; advance: Advance }> {
    const dueAt = new Date(reminder.next_due_at);
    const occurrence: ReminderOccurrence = { dueAt, key: reminder.next_occurrence_key };
    const kind = REMINDER_KIND_IMPLEMENTATIONS[reminder.kind];
    if (!kind) {
      this.options.logger.error({ reminderId: reminder.id, kind: reminder.kind }, 'reminder of an unknown kind: looked at again in an hour');
      return { delivery: null, advance: { id: reminder.id, nextDueAt: new Date(now.getTime() + 3_600_000), key: occurrence.key } };
    }
    // Sent when due, or when the engine gets to it (after a stop); held to the end of quiet hours when that falls in them.
    const sendFrom = dueAt.getTime() > now.getTime() ? dueAt : now;
    const held = quietHoursEnd(sendFrom, reminder.timezone, reminder.quiet_hours_start, reminder.quiet_hours_end);
    const delivery: NewDelivery = {
      id: randomUUID(),
      userId: reminder.user_id,
      reminderId: reminder.id,
      key: occurrence.key,
      dueAt,
      channel: reminder.channel,
      sendAt: held ?? dueAt,
      heldUntil: held,
    };
    const spec: ReminderSpec = {
      id: reminder.id,
      userId: reminder.user_id,
      kind: reminder.kind,
      targetId: reminder.target_id,
      offsetMinutes: reminder.offset_minutes,
      localTime: reminder.local_time,
    };
    // The next occurrence after this one, or after now when the engine was stopped past several: a
    // daily reminder missed for three days is sent once, late, not three times.
    const after = sendFrom;
    try {
      const deps = this.options.deps();
      const next = await kind.nextOccurrence(kindContext({ deps, em: deps.orm.em.fork() }, reminder.timezone), spec, after);
      if (next && next.dueAt.getTime() <= after.getTime()) throw new Error(`kind ${kind.name} answered an occurrence (${next.dueAt.toISOString()}) not after ${after.toISOString()}`);
      return { delivery, advance: { id: reminder.id, nextDueAt: next?.dueAt ?? null, key: next?.key ?? null } };
    } catch (error) {
      // This occurrence is still made; the next is asked for again later (its delivery then already exists).
      this.options.logger.error({ err: error, reminderId: reminder.id, kind: reminder.kind }, 'could not compute the next occurrence of a reminder');
      return { delivery, advance: { id: reminder.id, nextDueAt: new Date(now.getTime() + RETRY_NEXT_MS), key: occurrence.key } };
    }
  }
}
