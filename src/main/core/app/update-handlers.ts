import type { InvokeHandlers } from '../ipc/dispatch'

export type UpdateChannel = 'updates:get-state' | 'updates:check' | 'updates:restart'

/**
 * The `updates:*` channels as the app core answers them. In the app, main answers them itself (its updater,
 * src/main/shell/updates/, registered as main handlers), so they never reach the core process; where the core
 * runs without a shell (the browser tests' harness, the benchmarks) there is no updater, which is what these say:
 * updates are not set up, and there is nothing to restart into.
 */
export function createUpdateHandlers(): Pick<InvokeHandlers, UpdateChannel> {
  return {
    'updates:get-state': async () => ({ status: 'not-configured' }),
    'updates:check': async () => ({ status: 'not-configured' }),
    'updates:restart': async () => ({ status: 'not-ready' }),
  }
}
