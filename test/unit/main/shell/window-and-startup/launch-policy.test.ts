import { describe, expect, it } from 'vitest'
import { answerLaunch, relaunchArgs } from '../../../../../src/main/shell/window-and-startup/launch'
import {
  protocolClientAction,
  type ProtocolClientFacts,
} from '../../../../../src/main/shell/window-and-startup/protocol-client'

describe('answerLaunch', () => {
  it('relaunches after a quit under way, whatever windows there are', () => {
    for (const windowOpen of [true, false]) {
      expect(answerLaunch({ quitting: true, windowOpen, windowsCanOpen: true })).toBe('relaunch-after-quit')
    }
    expect(answerLaunch({ quitting: true, windowOpen: false, windowsCanOpen: false })).toBe(
      'relaunch-after-quit',
    )
  })

  it('brings an open window forward, opens one when there is none, and leaves start-up to open the first', () => {
    expect(answerLaunch({ quitting: false, windowOpen: true, windowsCanOpen: true })).toBe('focus')
    expect(answerLaunch({ quitting: false, windowOpen: false, windowsCanOpen: true })).toBe('open')
    expect(answerLaunch({ quitting: false, windowOpen: false, windowsCanOpen: false })).toBe('wait-for-start')
  })
})

describe('relaunchArgs', () => {
  it('keeps the arguments after the executable but any sign-in callback', () => {
    const argv = ['C:\\RosterDesk.exe', '--lang=en', 'COM.ROSTERDESK.APP:/oauth/callback?code=c', 'other']
    expect(relaunchArgs(argv, ['com.rosterdesk.app'])).toEqual(['--lang=en', 'other'])
    expect(relaunchArgs(['/usr/bin/rosterdesk'], ['com.rosterdesk.app'])).toEqual([])
  })
})

describe('protocolClientAction', () => {
  const exe = 'C:\\Program Files\\RosterDesk\\RosterDesk.exe'
  const facts = (overrides: Partial<ProtocolClientFacts>): ProtocolClientFacts => ({
    isPackaged: true,
    platform: 'win32',
    execPath: exe,
    userKeyIsOurs: false,
    resolvedHandler: undefined,
    ...overrides,
  })

  it('registers nothing when not packaged, on every OS', () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      expect(protocolClientAction(facts({ isPackaged: false, platform }))).toBe('not-packaged')
    }
  })

  it('registers a packaged app on macOS and Linux', () => {
    expect(protocolClientAction(facts({ platform: 'darwin' }))).toBe('register')
    expect(protocolClientAction(facts({ platform: 'linux' }))).toBe('register')
  })

  it('on Windows, writes the user key only when Windows does not already resolve the scheme to this executable', () => {
    expect(protocolClientAction(facts({ userKeyIsOurs: true }))).toBe('already-registered')
    // A per-machine install's key, however the path is spelt.
    expect(
      protocolClientAction(facts({ resolvedHandler: 'c:/program files/rosterdesk/RosterDesk.EXE' })),
    ).toBe('already-registered')
    expect(protocolClientAction(facts({ resolvedHandler: `"${exe}"` }))).toBe('already-registered')
    expect(protocolClientAction(facts({ resolvedHandler: 'C:\\dev\\electron.exe' }))).toBe('register')
    expect(protocolClientAction(facts({}))).toBe('register')
  })
})
