import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { crashRecordsPath } from '../../src/main/core/log/crash-records'
import { useMainProcesses } from './main-process'

/**
 * Issue 35, point 1: crashes kept on the machine. Under the stand-in (stand-in/crash-reporter.ts models Electron's
 * crashReporter, Crashpad's dumps, `render-process-gone` and `child-process-gone`), a crashed renderer and a killed
 * core process each give one summary line in main.log at the next start, and the window's notice once; dumps older
 * than 14 days are deleted at start, newer ones kept. What only a real desktop proves (a real dump in crashDumps)
 * is in test/desktop/crash.test.ts.
 */

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }

const shell = useMainProcesses()
const DAY_MS = 24 * 60 * 60 * 1000

describe('crashes recorded locally', () => {
  it('summarises a crashed renderer and a killed core process once at the next start, and deletes old dumps', async () => {
    const userData = shell.freshDir('crash')
    const log = (): string => {
      const path = join(userData, 'logs', 'main.log')
      return existsSync(path) ? readFileSync(path, 'utf8') : ''
    }
    const crashLines = (): string[] =>
      log()
        .split('\n')
        .filter((line) => line.includes('Crash: '))
    const completed = join(userData, 'Crashpad', 'completed')
    mkdirSync(completed, { recursive: true })
    const old = join(completed, 'old-dump.dmp')
    writeFileSync(old, 'MDMP')
    const fifteenDaysAgo = new Date(Date.now() - 15 * DAY_MS)
    utimesSync(old, fifteenDaysAgo, fifteenDaysAgo)

    // The first start: the crash reporter started before ready, storing only; the old dump deleted.
    const first = shell.start({ userData })
    const window = await first.windowReady()
    let snapshot = await first.snapshot()
    expect(snapshot.crashReporterStarts).toEqual([{ uploadToServer: false, beforeReady: true }])
    expect(existsSync(old)).toBe(false)
    await expect.poll(log).toContain('Crash dumps: 1 older than 14 days deleted')
    expect(crashLines()).toEqual([])
    const firstInfo = (await first.invoke('app:get-info')) as Result<{ crashedAt?: string }>
    expect(firstInfo.ok && firstInfo.value.crashedAt).toBeUndefined()

    // The renderer crashes (Crashpad dumps it), then the core process is killed (no dump: SIGKILL).
    await first.crashRenderer(window.id)
    const records = (): string => {
      const path = crashRecordsPath(userData)
      return existsSync(path) ? readFileSync(path, 'utf8') : ''
    }
    await expect.poll(records).toContain('"process":"renderer"')
    const corePid = snapshot.utilityProcesses.at(-1)?.pid
    expect(corePid).toBeDefined()
    process.kill(corePid!, 'SIGKILL')
    await expect.poll(records).toContain('"process":"core"')
    snapshot = await first.snapshot()
    expect(snapshot.crashDumps).toHaveLength(1)
    expect(readdirSync(completed)).toEqual(snapshot.crashDumps)
    if (process.platform !== 'win32') expect(statSync(crashRecordsPath(userData)).mode & 0o777).toBe(0o600)
    first.kill()
    await first.exited

    // The next start: one line per crash (the renderer's with its dump), and the window's notice.
    const second = shell.start({ userData })
    await second.windowReady()
    await expect.poll(() => crashLines().length).toBe(2)
    const [renderer, core] = crashLines()
    expect(renderer).toMatch(
      /Crash: the window \(renderer process\) went at \S+Z; RosterDesk 0\.1\.0-shell-test, Electron \S+; reason: crashed \(exit code 11\); dump \S+\.dmp/,
    )
    expect(renderer).toContain(snapshot.crashDumps[0])
    expect(core).toMatch(
      /Crash: the core process \(utility process\) went at .*reason: killed \(exit code 9\); no dump/,
    )
    const secondInfo = (await second.invoke('app:get-info')) as Result<{ crashedAt?: string }>
    expect(secondInfo.ok && secondInfo.value.crashedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    await second.quit()
    await second.exited

    // The start after: nothing new, so no line and no notice (main summarises before its window opens).
    const third = shell.start({ userData })
    await third.windowReady()
    expect(crashLines()).toHaveLength(2)
    const thirdInfo = (await third.invoke('app:get-info')) as Result<{ crashedAt?: string }>
    expect(thirdInfo.ok && thirdInfo.value.crashedAt).toBeUndefined()
  })
})
