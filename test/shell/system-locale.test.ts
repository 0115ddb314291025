import { describe, expect, it } from 'vitest'
import { useMainProcesses, type MainProcess } from './main-process'

/**
 * The OS's regional formats reach the window: the built shell asks Electron's `app.getSystemLocale()` (after
 * ready, as Electron requires; the stand-in throws before, as Electron does) and hands it to the core, whose
 * `app:get-info` gives it to the renderer.
 */

const shell = useMainProcesses()

function start(systemLocale: string): MainProcess {
  return shell.start({ userData: shell.freshDir('locale'), systemLocale })
}

describe('the system locale', () => {
  it.each(['de-DE', 'fr-FR'])('reaches the renderer’s app:get-info as %s', async (locale) => {
    const main = start(locale)
    await main.windowReady()
    const info = (await main.invoke('app:get-info')) as { ok: boolean; value?: { systemLocale?: string } }
    expect(info.ok).toBe(true)
    expect(info.value?.systemLocale).toBe(locale)
  })
})
