import { defineConfig } from 'vitest/config'

/**
 * `npm run test:desktop`: the packaged app on a real desktop (test/desktop), apart from `npm test` because it needs
 * a package from electron-builder and a display, neither of which the Linux test machine has. One file, one app
 * at a time; the limits allow for a cold start of a freshly installed app and a first sync on a hosted runner.
 */
/** Over the smoke test's launch and first-window limits together (120 s + 60 s), so those report first. */
const DESKTOP_HOOK_TIMEOUT_MS = 300_000

export default defineConfig({
  test: {
    name: 'desktop',
    environment: 'node',
    include: ['test/desktop/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: DESKTOP_HOOK_TIMEOUT_MS,
  },
})
