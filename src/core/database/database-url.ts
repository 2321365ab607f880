import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';

export interface ResolvedDatabase {
  url: string;
  embedded: EmbeddedDatabase | null;
  release(): Promise<void>;
}

const STATE_FILE = 'embedded-postgres.json';

/** Whether a process with this pid is still running. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * DATABASE_URL when set; otherwise the embedded cluster under DATA_DIR/pg. A running server records the
 * cluster's address so the admin command can reach the same database while it is up.
 */
export async function resolveDatabase(databaseUrl: string | undefined, dataDir: string): Promise<ResolvedDatabase> {
  if (databaseUrl) return { url: databaseUrl, embedded: null, release: async () => {} };
  const stateFile = join(dataDir, STATE_FILE);
  try {
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as { url: string; pid: number };
    if (state.pid !== process.pid && isProcessAlive(state.pid)) return { url: state.url, embedded: null, release: async () => {} };
  } catch {
    // no running instance recorded
  }
  const embedded = await startEmbeddedPostgres(join(dataDir, 'pg'));
  await writeFile(stateFile, JSON.stringify({ url: embedded.url, pid: process.pid }));
  return {
    url: embedded.url,
    embedded,
    async release() {
      await rm(stateFile, { force: true });
      await embedded.stop();
    },
  };
}
