import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openRecoveringUnreadable } from '../../../../../src/main/core/settings/unreadable-file'

describe('openRecoveringUnreadable', () => {
  const dirs: string[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))
  const setup = (content: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-settings-'))
    dirs.push(dir)
    const path = join(dir, 'settings.json')
    writeFileSync(path, content)
    // Like electron-store: parse the file if it exists, start empty if it does not.
    const open = () => {
      try {
        return JSON.parse(readFileSync(path, 'utf8')) as unknown
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
        throw error
      }
    }
    return { dir, path, open }
  }

  it('opens a readable file as it is', () => {
    const { path, open } = setup('{"settings":{"pageSize":200}}')
    const logs: string[] = []
    expect(openRecoveringUnreadable(path, open, (m) => logs.push(m))).toEqual({ settings: { pageSize: 200 } })
    expect(logs).toEqual([])
  })

  it('keeps an unreadable file aside, says so, and starts from the defaults', () => {
    const { dir, path, open } = setup('{"settings":{"pageSi')
    const logs: string[] = []
    expect(
      openRecoveringUnreadable(
        path,
        open,
        (m) => logs.push(m),
        () => 1700000000000,
      ),
    ).toEqual({})
    expect(readdirSync(dir)).toEqual(['settings.json.unreadable-1700000000000'])
    expect(readFileSync(join(dir, 'settings.json.unreadable-1700000000000'), 'utf8')).toBe(
      '{"settings":{"pageSi',
    )
    expect(logs).toEqual([
      'settings.json could not be read; kept it as settings.json.unreadable-1700000000000 and started from the defaults',
    ])
  })

  it('does not guess at other failures', () => {
    const { path } = setup('{}')
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })
    expect(() =>
      openRecoveringUnreadable(
        path,
        () => {
          throw denied
        },
        () => undefined,
      ),
    ).toThrow(denied)
  })
})
