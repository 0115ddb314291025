import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuiltBundles } from '../helpers/built-bundles'
import { startMainProcess, type MainProcess, killAndWait } from './main-process'

/**
 * The OS's regional formats reach the window: the built shell asks Electron's `app.getSystemLocale()` (after
 * ready, as Electron requires; the stand-in throws before, as Electron does) and hands it to the core, whose
 * `app:get-info` gives it to the renderer.
 */

const dirs: string[] = []
const running: MainProcess[] = []

beforeAll(async () => {
  await ensureBuiltBundles()
}, 180_000)

afterAll(async () => {
  await killAndWait(running)
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function start(systemLocale: string): MainProcess {
  const userData = mkdtempSync(join(tmpdir(), 'rosterdesk-shell-locale-'))
  dirs.push(userData)
  const main = startMainProcess({ userData, systemLocale })
  running.push(main)
  return main
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
