import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { signUp, type HttpClient } from '../support/http-client.js';
import { weekDayIds } from '../support/fixtures.js';
import { liveClient, type LiveClient } from '../support/live-client.js';

const MINE = `subscription { myChanges { entity id kind committedAt } }`;

/** Kills every connection the service holds to its database (pg_terminate_backend), once. */
async function killConnections(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: inject('dbServerUrl') });
  await client.connect();
  try {
    const name = new URL(databaseUrl).pathname.slice(1);
    const killed = await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    return killed.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/** Waits until the service holds a connection to its database again (the bus reconnects with a backoff). */
async function connectionsBack(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('dbServerUrl') });
  await client.connect();
  try {
    const name = new URL(databaseUrl).pathname.slice(1);
    for (let attempt = 0; attempt < 100; attempt++) {
      const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      if (rows[0].n > 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the service did not connect to its database again');
  } finally {
    await client.end();
  }
}

/** Posts until the write commits (a request on a killed connection answers 500 and is sent again). */
async function postUntilCommitted(client: HttpClient, path: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    if ((await client.post(path, {})).status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${path} never committed`);
}

describe('the PostgreSQL live bus when the database connections are killed (issue 34, item 9)', () => {
  let app: TestApp;
  let anna: { client: HttpClient; id: string };
  let days: string[];
  let socket: LiveClient | undefined;

  beforeAll(async () => {
    app = await startTestApp();
    anna = await signUp(app.url);
    days = await weekDayIds(anna.client, '2026-11-23');
  });
  afterAll(async () => {
    await socket?.dispose();
    await app?.close();
  });

  it('a change committed right after the kill reaches myChanges as itself, not only as the reconnect\'s "*"', async () => {
    socket = liveClient(app.url, anna.client.cookie);
    const feed = socket.follow(MINE);
    await feed.waitFor(() => true);
    for (let round = 0; round < 2; round++) {
      const before = feed.results.length;
      await connectionsBack(app.databaseUrl); // something to kill: the last round's kill may still be mending
      // The kill and the write together: the write commits while the bus's connections are being replaced.
      const [killed] = await Promise.all([killConnections(app.databaseUrl), postUntilCommitted(anna.client, `/api/v1/checklist/${days[round]}/toggle/GYM`)]);
      expect(killed).toBeGreaterThan(0);
      const reached = (r: (typeof feed.results)[number]) => feed.results.indexOf(r) >= before && (r.data?.myChanges ?? []).some((c: { entity: string }) => c.entity === 'ChecklistItem');
      await feed.waitFor(reached, 8000).catch((error) => {
        throw new Error(`round ${round}: ${error.message}; results after the kill: ${JSON.stringify(feed.results.slice(before))}`);
      });
    }
  }, 60_000);
});
