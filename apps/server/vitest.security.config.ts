import { defineConfig } from 'vitest/config';

// test:security: the authorization matrix and the fuzzing of every route (test-security/).
export default defineConfig({
  test: {
    include: ['test-security/**/*.test.ts'],
    // The suite boots one PGlite (a few seconds of WebAssembly start-up on a small machine).
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
