import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { retentionNotice } from '../../../../../src/shared/policy-view'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { writerLockPathOf } from '../../../../../src/main/core/cache/writer-lock'
import { deleteExpiredCaches, personalDataRulesOf } from '../../../../../src/main/core/session/personal-data'
import { NO_POLICY } from '../../../../../src/main/core/policy/policy-in-force'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

const DAY = 24 * 60 * 60 * 1000
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A cache folder whose catalog exists but holds no complete sync, its file `daysOld` days old. */
function neverSyncedCache(daysOld: number, now: number): string {
  const root = mkdtempSync(join(tmpdir(), 'rosterdesk-retention-'))
  dirs.push(root)
  const cacheDir = join(root, 'cache')
  mkdirSync(cacheDir)
  const catalog = join(cacheDir, 'employees.sqlite')
  openCacheDatabase(catalog, { key: TEST_CACHE_KEY }).close()
  const time = new Date(now - daysOld * DAY)
  utimesSync(catalog, time, time)
  return cacheDir
}

const NOW = Date.now()
const clock = { now: () => NOW }

describe('personalData.deleteUnsyncedAfterDays on caches never synced completely', () => {
  it('judges such a cache by its catalog file’s time: 31 days old is deleted under 30, 29 kept', () => {
    const old = neverSyncedCache(31, NOW)
    const recent = neverSyncedCache(29, NOW)
    const log: string[] = []
    const logger = { info: (text: string) => log.push(text), warn: (text: string) => log.push(text) }
    const swept = deleteExpiredCaches(
      { deleteUnsyncedAfterDays: 30, clearOnSignOut: false },
      [
        { profileId: 'p1', catalog: join(old, 'employees.sqlite') },
        { profileId: 'p2', catalog: join(recent, 'employees.sqlite') },
      ],
      { clock, key: TEST_CACHE_KEY, logger },
    )
    expect(swept).toEqual({ deletedCaches: 1, deletedSetAside: 0, notice: retentionNotice(30) })
    expect(existsSync(old)).toBe(false)
    expect(existsSync(join(recent, 'employees.sqlite'))).toBe(true)
    expect(log).toEqual([
      expect.stringMatching(/^Machine policy: deleting profile p1's saved employees \(0 employees/),
    ])
  })

  it('leaves a cache a live process is writing (a CLI sync) for the next start', () => {
    const old = neverSyncedCache(40, NOW)
    const catalog = join(old, 'employees.sqlite')
    writeFileSync(
      writerLockPathOf(catalog),
      JSON.stringify({ pid: process.pid, host: hostname(), since: new Date(NOW).toISOString() }),
    )
    const warnings: string[] = []
    const swept = deleteExpiredCaches(
      { deleteUnsyncedAfterDays: 30, clearOnSignOut: false },
      [{ profileId: 'p1', catalog: join(old, 'employees.sqlite') }],
      {
        clock,
        key: TEST_CACHE_KEY,
        logger: { info: () => undefined, warn: (text: string) => warnings.push(text) },
      },
    )
    expect(swept.notice).toBeUndefined()
    expect(existsSync(catalog)).toBe(true)
    expect(warnings).toEqual([expect.stringContaining('is being synced; kept until the next start')])
  })

  it('keeps a cache whose deletion fails (EBUSY) for the next start, logs it without its path, and goes on', () => {
    const busy = neverSyncedCache(40, NOW)
    const other = neverSyncedCache(40, NOW)
    const log: string[] = []
    const logger = { info: (text: string) => log.push(text), warn: (text: string) => log.push(text) }
    // As Windows refuses while another process has the SQLite file open.
    const refuse = (dir: string): void => {
      if (dir === busy)
        throw Object.assign(new Error(`EBUSY: resource busy or locked, rmdir '${dir}'`), { code: 'EBUSY' })
      rmSync(dir, { recursive: true, force: true })
    }
    const swept = deleteExpiredCaches(
      { deleteUnsyncedAfterDays: 30, clearOnSignOut: false },
      [
        { profileId: 'p1', catalog: join(busy, 'employees.sqlite') },
        { profileId: 'p2', catalog: join(other, 'employees.sqlite') },
      ],
      { clock, key: TEST_CACHE_KEY, logger, remove: { cache: refuse, setAside: refuse } },
    )
    expect(swept).toEqual({ deletedCaches: 1, deletedSetAside: 0, notice: retentionNotice(30) })
    expect(existsSync(join(busy, 'employees.sqlite'))).toBe(true)
    expect(existsSync(other)).toBe(false)
    expect(log).toContain(
      "Machine policy: profile p1's saved employees could not be deleted (EBUSY); kept until the next start",
    )
    expect(log.join('\n')).not.toContain(busy)
  })

  it('does nothing without the rule', () => {
    const old = neverSyncedCache(400, NOW)
    const rules = personalDataRulesOf(NO_POLICY)
    expect(rules).toEqual({ deleteUnsyncedAfterDays: undefined, clearOnSignOut: false })
    const swept = deleteExpiredCaches(rules, [{ profileId: 'p1', catalog: join(old, 'employees.sqlite') }], {
      clock,
      key: TEST_CACHE_KEY,
      logger: { info: () => undefined, warn: () => undefined },
    })
    expect(swept.deletedCaches).toBe(0)
    expect(existsSync(old)).toBe(true)
  })
})
