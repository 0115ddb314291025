import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { logsFolder } from '../../../../../src/main/core/log/file-log'
import {
  aboutText,
  startupFailureText,
  userDataFolder,
} from '../../../../../src/main/shell/window-and-startup/startup'

describe('shell start-up decisions', () => {
  it('keeps a development run out of the installed app’s data folder (and so its lock, cache and secrets)', () => {
    expect(userDataFolder('/u/RosterDesk', true, undefined)).toBe('/u/RosterDesk')
    expect(userDataFolder('/u/RosterDesk', false, undefined)).toBe('/u/RosterDesk-development')
    expect(userDataFolder('/u/RosterDesk', true, '/tmp/fresh')).toBe('/tmp/fresh')
    expect(userDataFolder('/u/RosterDesk', false, '  ')).toBe('/u/RosterDesk-development')
    expect(logsFolder('/u/RosterDesk')).toBe(join('/u/RosterDesk', 'logs'))
  })

  it('tells the clerk why starting failed and where the log is', () => {
    const known = startupFailureText(
      new RosterDeskError('storage', 'The disk is full. Free some space and start RosterDesk again.'),
      '/u/logs/main.log',
    )
    expect(known.title).toBe('RosterDesk could not start')
    expect(known.message).toContain('The disk is full.')
    expect(known.message).toContain('/u/logs/main.log')

    const unknown = startupFailureText(new TypeError('x is undefined'), '/u/logs/main.log')
    // A programming error's text means nothing to a clerk; the log has it.
    expect(unknown.message).not.toContain('x is undefined')
    expect(unknown.message).toContain('unexpected error')
    expect(unknown.message).toContain('/u/logs/main.log')
  })

  it('shows the versions and folders support asks for in About', () => {
    const text = aboutText(
      { app: '1.2.3', electron: '45.4.1', chrome: '142.0.1', node: '22.20.0' },
      '/u/RosterDesk',
      '/u/RosterDesk/logs',
      'Updates are not set up for this build',
    )
    expect(text.split('\n')).toEqual([
      'Version 1.2.3',
      'Updates are not set up for this build',
      'Electron 45.4.1, Chromium 142.0.1, Node.js 22.20.0',
      'Data folder: /u/RosterDesk',
      'Log folder: /u/RosterDesk/logs',
    ])
  })

  it("names the saved employees' folder in About where it is not the data folder (Windows)", () => {
    const text = aboutText(
      { app: '1.2.3', electron: '45.4.1', chrome: '142.0.1', node: '22.20.0' },
      'C:\\Users\\ana\\AppData\\Roaming\\RosterDesk',
      'C:\\Users\\ana\\AppData\\Roaming\\RosterDesk\\logs',
      'Up to date',
      'C:\\Users\\ana\\AppData\\Local\\RosterDesk',
    )
    expect(text.split('\n').slice(3)).toEqual([
      'Data folder: C:\\Users\\ana\\AppData\\Roaming\\RosterDesk',
      'Saved employees: C:\\Users\\ana\\AppData\\Local\\RosterDesk',
      'Log folder: C:\\Users\\ana\\AppData\\Roaming\\RosterDesk\\logs',
    ])
  })
})
