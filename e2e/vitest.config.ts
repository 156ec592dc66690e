import { defineConfig } from 'vitest/config';

// Browser tests: one real server (built web app + API on an embedded database) for the whole run,
// one Chromium per file, files one after another so two cores are not fought over.
export default defineConfig({
  test: {
    include: ['tests/**/*.e2e.ts'],
    globalSetup: ['./support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
