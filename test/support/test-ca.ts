import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { createTestPki, type TestPki } from '../../src/webhooks/webhooks.test-receiver.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's test CA and the certificate of the HTTPS receivers (127.0.0.1, localhost) it signed. */
    testPki: TestPki;
  }
}

/**
 * One test CA for the run, trusted by every test worker: the workers are forked after the global setup,
 * with its environment, and Node reads NODE_EXTRA_CA_CERTS at start. So a service in the test's own
 * process reaches the HTTPS receivers (src/webhooks/webhooks.test-receiver.ts) as a service process does
 * with the NODE_EXTRA_CA_CERTS it is given, and a test can drive its engines' clocks.
 */
export default async function setup(project: TestProject) {
  const pki = await createTestPki();
  process.env.NODE_EXTRA_CA_CERTS = pki.caFile;
  project.provide('testPki', pki);
  return async () => {
    await rm(pki.dir, { recursive: true, force: true });
  };
}
