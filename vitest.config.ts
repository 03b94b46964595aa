import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    // Every test's temporary files in one folder, removed when the run ends.
    globalSetup: ['tests/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser tests start Chromium; two cores are all this machine has.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
