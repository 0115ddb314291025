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
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
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
          testTimeout: 15_000,
          hookTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
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
