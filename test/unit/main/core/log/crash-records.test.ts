import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  crashRecordsPath,
  crashSummaryLine,
  readCrashSummaries,
  recordCrash,
  summariseCrashesAtStart,
  type CrashEvent,
} from '../../../../../src/main/core/log/crash-records'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const DAY_MS = 24 * 60 * 60 * 1000
const NOW = Date.parse('2026-12-07T09:30:00.000Z')

function folders(): { dataDir: string; dumpsDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'rosterdesk-crash-'))
  dirs.push(dataDir)
  return { dataDir, dumpsDir: join(dataDir, 'Crashpad') }
}

function dump(dumpsDir: string, name: string, at: number, folder = 'completed'): string {
  mkdirSync(join(dumpsDir, folder), { recursive: true })
  const path = join(dumpsDir, folder, name)
  writeFileSync(path, 'MDMP')
  utimesSync(path, new Date(at), new Date(at))
  return path
}

const event = (overrides: Partial<CrashEvent> = {}): CrashEvent => ({
  process: 'renderer',
  at: '2026-12-07T09:12:00.000Z',
  reason: 'crashed',
  exitCode: 11,
  appVersion: '1.4.0',
  electronVersion: '45.4.1',
  ...overrides,
})

const start = (dataDir: string, dumpsDir: string, now = NOW) =>
  summariseCrashesAtStart({ dataDir, dumpsDir, now, appVersion: '1.5.0', electronVersion: '45.4.2' })

describe('crash records', () => {
  it('summarises each recorded crash once, with the dump written beside it, and tells of the newest', () => {
    const { dataDir, dumpsDir } = folders()
    start(dataDir, dumpsDir, NOW - DAY_MS)
    recordCrash(dataDir, event())
    recordCrash(
      dataDir,
      event({ process: 'core', at: '2026-12-07T09:20:00.000Z', reason: 'killed', exitCode: 9 }),
    )
    dump(dumpsDir, 'aaaa.dmp', Date.parse('2026-12-07T09:12:02.000Z'))
    expect(readCrashSummaries(dataDir).map((s) => s.process)).toEqual(['renderer', 'core'])

    const first = start(dataDir, dumpsDir)
    expect(first.summaries).toEqual([
      { ...event(), dump: 'aaaa.dmp' },
      event({ process: 'core', at: '2026-12-07T09:20:00.000Z', reason: 'killed', exitCode: 9 }),
    ])
    expect(first.noticeAt).toBe('2026-12-07T09:20:00.000Z')
    expect(crashSummaryLine(first.summaries[0]!)).toBe(
      'Crash: the window (renderer process) went at 2026-12-07T09:12:00.000Z; RosterDesk 1.4.0, Electron 45.4.1; reason: crashed (exit code 11); dump aaaa.dmp',
    )
    expect(crashSummaryLine(first.summaries[1]!)).toContain('the core process (utility process)')
    expect(crashSummaryLine(first.summaries[1]!)).toContain('reason: killed (exit code 9); no dump')

    const again = start(dataDir, dumpsDir, NOW + 60_000)
    expect(again.summaries).toEqual([])
    expect(again.noticeAt).toBeUndefined()
    // Kept for a diagnostics file.
    expect(readCrashSummaries(dataDir)).toHaveLength(2)
    if (process.platform !== 'win32') expect(statSync(crashRecordsPath(dataDir)).mode & 0o777).toBe(0o600)
  })

  it('counts a new dump no event accounts for (a crash of main itself) under the previous run’s versions', () => {
    const { dataDir, dumpsDir } = folders()
    start(dataDir, dumpsDir, NOW - DAY_MS)
    const at = NOW - 3_600_000
    dump(dumpsDir, 'bbbb.dmp', at, 'pending')
    const { summaries, noticeAt } = start(dataDir, dumpsDir)
    expect(summaries).toEqual([
      {
        process: 'dump-only',
        at: new Date(at).toISOString(),
        reason: 'dump-only',
        appVersion: '1.5.0',
        electronVersion: '45.4.2',
        dump: 'bbbb.dmp',
      },
    ])
    expect(noticeAt).toBe(new Date(at).toISOString())
    expect(crashSummaryLine(summaries[0]!)).toContain('a crash dump only')
  })

  it('deletes dumps older than 14 days with their side files, and keeps newer ones', () => {
    const { dataDir, dumpsDir } = folders()
    const old = dump(dumpsDir, 'old.dmp', NOW - 15 * DAY_MS)
    writeFileSync(join(dumpsDir, 'completed', 'old.meta'), '')
    mkdirSync(join(dumpsDir, 'attachments', 'old'), { recursive: true })
    dump(dumpsDir, 'recent.dmp', NOW - 13 * DAY_MS)
    const result = start(dataDir, dumpsDir)
    expect(result.deletedDumps).toBe(1)
    expect(readdirSync(join(dumpsDir, 'completed'))).toEqual(['recent.dmp'])
    expect(readdirSync(join(dumpsDir, 'attachments'))).toEqual([])
    expect(result.summaries.map((s) => s.dump)).toEqual(['recent.dmp'])
    expect(old).not.toBe('')
  })

  it('starts over from a damaged file, and reads nothing from a folder without one', () => {
    const { dataDir, dumpsDir } = folders()
    expect(readCrashSummaries(dataDir)).toEqual([])
    writeFileSync(crashRecordsPath(dataDir), '{"version":1,"pending":[')
    expect(readCrashSummaries(dataDir)).toEqual([])
    expect(recordCrash(dataDir, event())).toBe(true)
    expect(start(dataDir, dumpsDir).summaries).toEqual([event()])
    expect(readFileSync(crashRecordsPath(dataDir), 'utf8')).not.toContain('pending":[{')
  })
})
