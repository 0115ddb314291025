import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

/**
 * `npm test` runs every project here. Unit and renderer tests are quick and get tight limits, so a hang shows as a
 * failure in seconds; end-to-end and shell tests start real servers, Chromium and built bundles, and two cores make
 * generous limits honest. The desktop smoke test (a packaged app on a real desktop) has its own config,
 * vitest.desktop.config.ts, run by `npm run test:desktop`.
 */
export default defineConfig({
  test: {
    // Two files at a time on the project's 2-core machine: end-to-end files spend much of their time waiting on
    // Chromium, servers and child processes, so two keep both cores busy where vitest's default (cores − 1) ran
    // the whole suite one file after another. Each file's own waits are on conditions, so a loaded machine makes
    // a file slower, never wrong.
    maxWorkers: 2,
    // A condition polled end to end (a page painted, a file written, a print handed over) may take seconds on a
    // loaded machine; vitest's default of one second made such waits fail for time alone.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
          // One worker process runs file after file, keeping the modules it has evaluated (only each test file
          // itself is evaluated afresh): importing the app's modules (zod schemas, better-sqlite3, undici) once per
          // worker instead of once per file, and no process started per file. What a file sets up it takes down
          // (servers, folders, timers, environment variables). A module vi.mock replaces stays replaced for the
          // files after it: the one unit file that mocks (electron, in shortcuts.test.ts) mocks a module no other
          // unit file evaluates.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/renderer/**/*.test.tsx'],
          setupFiles: ['test/renderer/setup.ts'],
          // As the unit project: React, testing-library and the app's modules imported once per worker, not per
          // file (the project's CPU time halves: 212 s → 105 s). jsdom is still made afresh for each file, and the
          // files pass in any order (`--sequence.shuffle`).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          // Once per run: the CLI's bundles and one Chromium that each browser test file opens its contexts in.
          globalSetup: ['test/helpers/e2e-global-setup.ts'],
          // As the unit project: the harness, playwright-core and the app's modules imported once per worker (the
          // project's import time 235 s → 21 s, its CPU time a fifth less). Each file starts and stops its own
          // servers, sandboxes and contexts (use* helpers register their hooks in the calling file).
          isolate: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'shell',
          environment: 'node',
          include: ['test/shell/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
})
