import { defineConfig } from 'vitest/config';

// `npm run test:faults`: the server under faults (each file's header says what and how): the
// ledger under concurrency, SIGKILL mid-burst on PGlite and PostgreSQL, agent churn and cheating
// agents. The global setup prints the cheats' table and then one figures line, last.
export default defineConfig({
  test: {
    include: ['test-faults/**/*.test.ts'],
    globalSetup: ['test-faults/support/global-setup.ts'],
    // Each test file boots its own PGlite (a few seconds of WebAssembly start-up on a small machine).
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
