import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that hold on to a module's state for the whole process, and so need a fresh one: the early share-card
 * thread is started once per process (site/pictures/earlyCards.ts), and its test asserts what a fresh build sees.
 */
const ISOLATED = ['tests/site/earlyCards.test.ts'];
const INCLUDE = ['tests/**/*.test.ts', 'tests/**/*.test.tsx'];

export default defineConfig({
  test: {
    // Every test's temporary files in one folder, removed when the run ends.
    globalSetup: ['tests/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser tests start Chromium; two cores are all this machine has.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: INCLUDE,
          exclude: [...configDefaults.exclude, ...ISOLATED],
          // The files of a worker share its modules, loaded once, instead of each loading felt, React and the rest
          // again in a fresh process: a full run took 825 s instead of 883 s (`npx vitest run --no-isolate` against
          // `npx vitest run`, 2026-11-29, this machine), its module loading 18 s instead of 92 s. fileState.ts puts
          // back what a file changes of the process.
          isolate: false,
          setupFiles: ['tests/support/fileState.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
