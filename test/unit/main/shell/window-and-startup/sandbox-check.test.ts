import { describe, expect, it } from 'vitest'
import { sandboxOffReason } from '../../../../../src/main/shell/window-and-startup/sandbox-check'

const switches = (...names: string[]) => ({ hasSwitch: (name: string) => names.includes(name) })

describe('sandboxOffReason', () => {
  it('names the AppImage launcher when the AppImage runtime started the app with --no-sandbox', () => {
    expect(sandboxOffReason(switches('no-sandbox'), { APPIMAGE: '/opt/RosterDesk.AppImage' })).toContain(
      'by its AppImage launcher',
    )
    expect(sandboxOffReason(switches('no-sandbox'), {})).toContain('started with --no-sandbox')
    expect(
      sandboxOffReason(switches('proxy-server'), { APPIMAGE: '/opt/RosterDesk.AppImage' }),
    ).toBeUndefined()
  })
})
