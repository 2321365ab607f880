import pg from 'pg';

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
