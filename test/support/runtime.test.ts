import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.js';
import { inheritedEnv } from './service-process.js';

// Issue 36: the service, the tests and the bench run on the Node 24 that npm installs for this platform
// (an optional dependency `node-<platform>-<arch>`, whose `node` npm links into node_modules/.bin, first
// on the PATH of every npm script), whatever Node the machine has. The code itself stays valid on 20–24.
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { optionalDependencies: Record<string, string> };
const runtimes = Object.entries(manifest.optionalDependencies).filter(([name]) => /^node-(linux|darwin|win)-/.test(name));
const platform = process.platform === 'win32' ? 'win' : process.platform;
const pinned = manifest.optionalDependencies[`node-${platform}-${process.arch}`];

/** PATH as a shell outside the project has it: no node_modules/.bin, so `npm` and `node` are the machine's. */
function machinePath(): string {
  return (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes(`node_modules${sep}.bin`)).join(delimiter);
}

/** `npm start` as a person types it; resolves with the service's "listening" log line once it listens. */
function npmStart(env: NodeJS.ProcessEnv): { listening: Promise<Record<string, unknown>>; stop(): Promise<void> } {
  // Its own process group, signalled as a terminal's Ctrl-C signals it: npm, its shell and the service.
  const child = spawn('npm', ['start'], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output: string[] = [];
  const closed = new Promise<void>((resolve) => child.stdout!.once('close', () => resolve()));
  const listening = new Promise<Record<string, unknown>>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (line.includes('"msg":"listening on')) resolve(JSON.parse(line) as Record<string, unknown>);
    });
    void closed.then(() => reject(new Error(`npm start ended before listening:\n${output.join('\n')}`)));
  });
  return {
    listening,
    async stop() {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await closed;
    },
  };
}

describe('the Node that runs the tests and the service (issue 36)', () => {
  it('pins one Node 24 build per platform, within the engines range the code keeps', () => {
    expect(runtimes.length).toBeGreaterThan(0);
    for (const [name, version] of runtimes) expect(version, name).toMatch(/^24\.\d+\.\d+$/);
  });

  describe.runIf(pinned)('on a platform with a pinned build', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(async () => {
      await app?.close();
    });

    it('runs this test run on it', () => {
      expect(process.version).toBe(`v${pinned}`);
    });

    it('runs the service on it when the machine’s own npm and node run `npm start`', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'lp-runtime-'));
      const service = npmStart({ ...inheritedEnv(), PATH: machinePath(), PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: app.databaseUrl, DATA_DIR: dataDir });
      try {
        const listening = await service.listening;
        expect(listening.node).toBe(`v${pinned}`);
        expect((await fetch(`${String(listening.url)}/readyz`)).status).toBe(200);
      } finally {
        await service.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    }, 120_000);
  });
});
