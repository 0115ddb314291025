import { TEST_HOOKS_SWITCH } from '../../../shared/test-hooks'

/**
 * Whether the window gets the test hooks (src/shared/test-hooks.ts): only when ROSTERDESK_TEST_HOOKS=1 and Node's
 * inspector is open in main. The installers' builds can never open it: their NodeCliInspect fuse is off
 * (electron-builder.json `electronFuses`), so Electron ignores --inspect; the desktop workflow's test copy has it
 * on, as Playwright drives main through it (test/desktop/desktop-app.ts). So a clerk's RosterDesk has no hook,
 * whatever its environment says.
 */
export function testHooksAllowed(env: NodeJS.ProcessEnv, inspectorUrl: string | undefined): boolean {
  return env['ROSTERDESK_TEST_HOOKS'] === '1' && inspectorUrl !== undefined
}

/** The window's `additionalArguments`: the test hooks' switch when allowed, else none. */
export function testHookArguments(allowed: boolean): string[] {
  return allowed ? [TEST_HOOKS_SWITCH] : []
}
