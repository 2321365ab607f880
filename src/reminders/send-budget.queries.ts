import type pg from 'pg';
import { namedParameters } from '../core/database/named-parameters.js';
import { inTransaction } from '../core/database/transaction.js';

const MINUTE_MS = 60_000;

export function minuteOf(now: Date): Date {
  return new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
}

/**
 * The per-person send budget (issue 34, item 10): at most `perMinute` deliveries started per person and
 * clock minute, all channels and instances together. Counted on the person's notification settings row
 * (made when missing), locked while counted, so two instances claiming for one person wait for each
 * other. Answers how many of the wanted sends each person may start now.
 */
export async function reserveSends(pool: pg.Pool, wanted: Map<string, number>, now: Date, perMinute: number): Promise<Map<string, number>> {
  const users = [...wanted.keys()].sort();
  const granted = new Map<string, number>();
  if (!users.length) return granted;
  const minute = minuteOf(now);
  return inTransaction(pool, async (client) => {
    const run = (text: string, values: Record<string, unknown>) => {
      const statement = namedParameters(text, values);
      return client.query(statement.text, statement.values);
    };
    await run(
      `insert into notification_settings (id, created_at, updated_at, user_id)
       select gen_random_uuid(), :now, :now, u from unnest(:users::uuid[]) as u
       on conflict (user_id) do nothing`,
      { now, users },
    );
    const { rows } = await run(
      `select user_id, send_minute, sends_in_minute from notification_settings where user_id = any(:users::uuid[]) order by user_id for update`,
      { users },
    );
    const used: number[] = [];
    for (const row of rows as { user_id: string; send_minute: Date | null; sends_in_minute: number }[]) {
      const before = row.send_minute && new Date(row.send_minute).getTime() === minute.getTime() ? row.sends_in_minute : 0;
      const take = Math.max(0, Math.min(wanted.get(row.user_id) ?? 0, perMinute - before));
      granted.set(row.user_id, take);
      used.push(before + take);
    }
    await run(
      `update notification_settings ns set send_minute = :minute, sends_in_minute = t.used
         from unnest(:users::uuid[], :used::int[]) as t(user_id, used) where ns.user_id = t.user_id`,
      { minute, users: rows.map((r: { user_id: string }) => r.user_id), used },
    );
    return granted;
  });
}

/**
 * Deliveries claimed past their person's budget go back unsent, not lost: pending again from the next
 * minute, their claim's attempt given back, with a note saying why they wait.
 */
export async function deferDeliveries(pool: pg.Pool, ids: string[], until: Date, now: Date): Promise<void> {
  if (!ids.length) return;
  const statement = namedParameters(
    `update reminder_deliveries set attempts = attempts - 1, next_attempt_at = :until, updated_at = :now,
       error = 'Deferred: the send budget of this person for the minute was spent (REMINDER_SENDS_PER_MINUTE)'
     where id = any(:ids::uuid[]) and status = 'pending'`,
    { ids, until, now },
  );
  await pool.query(statement.text, statement.values);
}
