import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Node resolves `graphql` to its CommonJS entry for the packages vitest leaves to Node (type-graphql,
  // sofa-api); Vite would pick the ESM one for our code. Two copies of graphql cannot share a schema.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['src/**/*.test.ts', 'rest/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts', 'test/support/test-ca.ts'],
    setupFiles: ['reflect-metadata'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
