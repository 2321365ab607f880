import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The Node flags of `npm start` (`node <flags> dist/src/app/main.js` in package.json), so a benchmark or
 * a test that starts the built service runs it exactly as it is started (the heap flags change its
 * memory); a start script of another shape is refused rather than guessed at.
 */
export async function startScriptNodeFlags(): Promise<string[]> {
  const pkg = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const match = /^node((?:\s+--\S+)*)\s+dist\/src\/app\/main\.js$/.exec(pkg.scripts.start ?? '');
  if (!match) throw new Error(`npm start is not "node [flags] dist/src/app/main.js" (${pkg.scripts.start}): update scripts/start-script.ts`);
  return match[1]!.split(/\s+/).filter(Boolean);
}
