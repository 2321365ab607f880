import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';

/*
 * Under load V8 lets the old generation grow to about four times what survives a full collection
 * before it collects again (a week read at 32 connections peaked above 400 MB RSS for ~70 MB live).
 * A growing factor of 2 keeps the peak near 260 MB at the same CPU per request (measured with
 * `npm run bench -- week-read`); capping the heap instead (--max-old-space-size) cost ~40% more CPU.
 * The young generation's size can only be set when Node starts: `npm start` passes
 * --max-semi-space-size=4 (a quarter of the default). 8 took the week read's peak from ~260-295 to
 * ~240 MB with no CPU cost measured; 4 (issue 36) also keeps the idle service under 150 MB: start-up
 * grows the young generation to its maximum and an idle process never shrinks it (13 MB committed for
 * ~4 MB used at 8). Measured against 8 on the week read, CPU per request relative to the baseline was
 * unchanged within the machine's noise and the peak lower (bench/README.md, issue 36: idle memory).
 */
setFlagsFromString('--heap-growing-percent=100');

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  // Loaded after reflect-metadata by construction: the build (scripts/build.ts) hoists the imports of
  // shared chunks above this module's own, so a static import could run decorators before the polyfill.
  const { startServer } = await import('./server.js');
  const server = await startServer(config, { logger });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await server.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  // A setting or a machine fact the person can fix is one line naming the remedy, not a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
