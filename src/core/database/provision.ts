import pg from 'pg';

/** The same server's maintenance database, for creating and dropping databases beside `url`. */
function adminUrl(url: string): string {
  const u = new URL(url);
  u.pathname = '/postgres';
  return u.toString();
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl(url) });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const SAFE_NAME = /^[a-z0-9_]+$/;

export async function createDatabase(url: string, name: string, template?: string): Promise<string> {
  if (!SAFE_NAME.test(name) || (template && !SAFE_NAME.test(template))) throw new Error(`unsafe database name ${name}`);
  await admin(url, (c) => c.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  return withDatabase(url, name);
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  if (!SAFE_NAME.test(name)) throw new Error(`unsafe database name ${name}`);
  await admin(url, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
