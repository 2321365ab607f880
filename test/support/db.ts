import pg from 'pg';
import { forgetSessionsHere } from '../../src/accounts/session-auth.js';

/** Runs one SQL statement against a test app's own database (to inspect or age rows). */
export async function sql<T extends Record<string, any> = Record<string, any>>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Gives a user a plan straight in the database (expiry in the past = lapsed), as `npm run admin -- set-plan` does. */
export async function setPlan(databaseUrl: string, userId: string, plan: 'free' | 'pro', expiresAt: Date | null = null): Promise<void> {
  await sql(databaseUrl, 'update users set plan = $1, plan_expires_at = $2 where id = $3', [plan, expiresAt, userId]);
  // The users trigger tells every instance to drop the user's cached sessions (src/accounts/session-auth.ts),
  // but the next request of a test can come before that NOTIFY is heard: the apps in this process forget
  // them now, as a change made through the service does. Service processes still hear the NOTIFY.
  forgetSessionsHere(userId);
}
