import { describe, expect, it } from 'vitest'
import {
  testHookArguments,
  testHooksAllowed,
} from '../../../../../src/main/shell/window-and-startup/test-hooks'
import { TEST_HOOKS_SWITCH } from '../../../../../src/shared/test-hooks'

describe('the test hooks (a test build only)', () => {
  it('need ROSTERDESK_TEST_HOOKS=1 and Node’s inspector open in main, which the installers’ fuse forbids', () => {
    expect(testHooksAllowed({ ROSTERDESK_TEST_HOOKS: '1' }, 'ws://127.0.0.1:9229/x')).toBe(true)
    expect(testHooksAllowed({ ROSTERDESK_TEST_HOOKS: '1' }, undefined)).toBe(false)
    expect(testHooksAllowed({}, 'ws://127.0.0.1:9229/x')).toBe(false)
    expect(testHooksAllowed({ ROSTERDESK_TEST_HOOKS: 'true' }, 'ws://127.0.0.1:9229/x')).toBe(false)
    expect(testHookArguments(true)).toEqual([TEST_HOOKS_SWITCH])
    expect(testHookArguments(false)).toEqual([])
  })
})
