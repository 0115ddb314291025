import { describe, expect, it } from 'vitest'
import type { ProxySignInRequest } from '../../src/shared/connection-report'
import { type MainProcess, useMainProcesses } from './main-process'

/**
 * Issue 31, point 7: a remembered Basic proxy sign-in goes to a plain-HTTP proxy the OS's settings or a PAC file
 * chose (WPAD) only after the clerk confirms once, in main's own dialog, for that proxy (host:port).
 */

const shell = useMainProcesses()
const PROXY = { isProxy: true, scheme: 'basic', host: 'wpad-proxy.example', port: 3128, realm: 'Corp' }
const QUESTION = 'Send your saved proxy sign-in to wpad-proxy.example:3128?'

function start(userData: string): MainProcess {
  const main = shell.start({ userData })
  return main
}

describe('a remembered proxy sign-in and a proxy found automatically', () => {
  it('is sent to a plain-HTTP proxy only once the clerk confirmed it in main’s dialog, asked once', async () => {
    const userData = shell.freshDir('wpad')
    const first = start(userData)
    await first.windowReady()
    // Typed in the window (the clerk sees the proxy's name there) and remembered: no confirmation.
    const typed = first.emitLogin(PROXY)
    const question = (await first.waitForEvent('network:proxy-sign-in')) as ProxySignInRequest
    await first.invoke('network:answer-proxy-sign-in', question.id, {
      username: 'clerk',
      password: 'pa55-word',
      remember: true,
    })
    expect(await typed).toBe('credentials')
    expect((await first.snapshot()).messageBoxes).toEqual([])
    await first.quit()

    // The next run's first challenge (the OS's settings are in force): main asks before sending it.
    const second = start(userData)
    await second.windowReady()
    // The clerk answers "Send" (Electron's default would be the box's defaultId, "Don’t send").
    await second.answerMessageBoxes(0)
    expect(await second.emitLogin(PROXY)).toBe('credentials')
    const boxes = (await second.snapshot()).messageBoxes
    expect(boxes.map((box) => box.message)).toEqual([QUESTION])
    expect(boxes[0]?.detail).toContain('not encrypted')
    // Confirmed: not asked again, this run or the next.
    expect(await second.emitLogin(PROXY)).toBe('credentials')
    expect((await second.snapshot()).messageBoxes).toHaveLength(1)
    await second.quit()
    const third = start(userData)
    await third.windowReady()
    expect(await third.emitLogin(PROXY)).toBe('credentials')
    expect((await third.snapshot()).messageBoxes).toEqual([])
  })
})
