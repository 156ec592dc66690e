import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each test file boots its own PGlite (a few seconds of WebAssembly start-up on a small machine).
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
