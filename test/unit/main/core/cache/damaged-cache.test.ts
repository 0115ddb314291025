import { randomBytes } from 'node:crypto'
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

/**
 * What the clerk reads: a file whose first page does not decrypt (replaced, emptied) cannot be told from one locked
 * with another key (LOCKED_CACHE_MESSAGE); damage further in is damage.
 */
const MESSAGE =
  /^(?:The saved employees are damaged; sync to rebuild them\.|The saved employees could not be unlocked with this computer’s key; a full sync is needed to rebuild them\.)$/
const PAGE = 4096

type Damage = (path: string) => void

/** Overwrites `length` bytes at `offset` with 0xFF: a page header or cell pointer turned to nonsense. */
function scribble(path: string, offset: number, length = 64): void {
  const fd = openSync(path, 'r+')
  try {
    writeSync(fd, Buffer.alloc(length, 0xff), 0, length, offset)
  } finally {
    closeSync(fd)
  }
}

/** Flips one bit in each of `count` pages after the first, spread over the file (never the 100-byte header). */
function flipBits(path: string, count = 8): void {
  const size = statSync(path).size
  const fd = openSync(path, 'r+')
  try {
    for (let i = 1; i <= count; i++) {
      const offset = Math.floor((size * i) / (count + 1) / PAGE) * PAGE + 8
      const byte = Buffer.alloc(1)
      readSync(fd, byte, 0, 1, offset)
      byte[0] = (byte[0] ?? 0) ^ 0x40
      writeSync(fd, byte, 0, 1, offset)
    }
  } finally {
    closeSync(fd)
  }
}

const DAMAGES: ReadonlyArray<readonly [string, Damage]> = [
  ['truncated to half', (path) => truncateSync(path, Math.floor(statSync(path).size / 2 / PAGE) * PAGE)],
  ['truncated mid-page', (path) => truncateSync(path, statSync(path).size - 1000)],
  ['bit-flipped page headers', (path) => flipBits(path)],
  ['a scribbled b-tree page', (path) => scribble(path, PAGE * 2)],
  ['replaced by random bytes', (path) => writeFileSync(path, randomBytes(statSync(path).size))],
  ['replaced by a text file', (path) => writeFileSync(path, 'Name,Salary\nAnn Lee,1000\n'.repeat(200))],
  ['emptied', (path) => writeFileSync(path, '')],
]

function asideFiles(folder: string, name: string): string[] {
  return readdirSync(folder).filter((entry) => entry.startsWith(`${name}.damaged-`))
}

function rows(count: number) {
  return Array.from({ length: count }, (_, i) =>
    employee(`u-${String(i).padStart(5, '0')}`, `First${i}`, `Last${i}`, 'Active'),
  )
}

describe('a damaged cache', () => {
  let dir: string
  let cleanup: () => void
  const opened: CacheDatabase[] = []
  beforeEach(() => ({ dir, cleanup } = makeTempDir('rosterdesk-damage-')))
  afterEach(() => {
    for (const cache of opened.splice(0)) cache.close()
    cleanup()
  })
  const open = (options = {}): CacheDatabase => {
    const cache = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY, ...options })
    opened.push(cache)
    return cache
  }

  async function seeded(count = 600): Promise<{ catalog: string; snapshot: string }> {
    const cache = open()
    await seedSnapshot(cache, rows(count))
    const snapshot = cache.currentSnapshotInfo()?.path ?? ''
    cache.close()
    return { catalog: cache.path, snapshot }
  }

  for (const [name, damage] of DAMAGES) {
    it(`a snapshot ${name}: opens empty with the damage noted, the file set aside, and a sync rebuilds`, async () => {
      const { snapshot } = await seeded()
      damage(snapshot)
      const warnings: string[] = []
      const logger = {
        info: () => undefined,
        warn: (message: string) => warnings.push(message),
        error: () => undefined,
      }
      const cache = open({ logger })
      const queries = new QueryEngine(cache)
      // The clerk's first query finds no employees, never a stack trace, and the reason is in the run log.
      expect(queries.query({ offset: 0, limit: 10 }).total).toBe(0)
      expect(cache.currentSnapshot()).toBeNull()
      expect(cache.runs.lastRun()).toMatchObject({
        status: 'failed',
        errorCode: 'damaged-cache',
        error: expect.stringMatching(MESSAGE),
      })
      expect(existsSync(snapshot)).toBe(false)
      expect(asideFiles(dirname(snapshot), basename(snapshot))).toHaveLength(1)
      expect(warnings.join('\n')).toMatch(/current snapshot is damaged; kept it as snapshot-.*\.damaged-/)

      await seedSnapshot(cache, rows(3))
      expect(queries.query({ offset: 0, limit: 10 }).total).toBe(3)
      expect(cache.runs.lastRun()?.status).toBe('complete')
      // The set-aside file survives the rebuild's sweep, for support to look at.
      expect(asideFiles(dirname(snapshot), basename(snapshot))).toHaveLength(1)
    })
  }

  it('a snapshot damaged after it was opened is set aside when the next sync begins', async () => {
    const { snapshot } = await seeded(3000)
    const again = open()
    expect(again.currentSnapshot()).not.toBeNull()
    // Damage while the app runs (the reader checked it when it opened): the sync verifies before building on it.
    flipBits(snapshot, 20)
    const { run, writer } = again.runs.beginRun(
      { pageSize: 10, concurrency: 1, trackedPayCycles: [] },
      new Date(),
    )
    expect(again.currentSnapshot()).toBeNull()
    expect(run.previousRunId).toBeNull()
    writer.discard()
    again.runs.endRun({
      id: run.id,
      startedAt: run.startedAt,
      endedAt: new Date().toISOString(),
      status: 'cancelled',
      totalCount: 0,
      stored: 0,
      pages: 0,
      requests: 0,
      durationMs: 0,
    })
  })

  for (const [name, damage] of DAMAGES.filter(([what]) => !what.startsWith('bit'))) {
    it(`a catalog ${name}: the app and sync set it aside and start empty; read-only opens refuse in one line`, async () => {
      const { catalog } = await seeded()
      damage(catalog)
      if (statSync(catalog).size === 0) {
        // An empty file is a valid empty SQLite database: nothing is damaged, the cache simply starts empty.
        expect(open().employeeCount()).toBe(0)
        return
      }
      const readOnly = captureError(() => open({ mustExist: true }))
      expect(readOnly).toBeInstanceOf(RosterDeskError)
      expect((readOnly as RosterDeskError).code).toBe('damaged-cache')
      expect((readOnly as RosterDeskError).message).toMatch(MESSAGE)
      expect(existsSync(catalog)).toBe(true)
      expect(asideFiles(dir, 'employees.sqlite')).toEqual([])

      const cache = open()
      expect(cache.employeeCount()).toBe(0)
      expect(cache.runs.lastRun()).toMatchObject({
        errorCode: 'damaged-cache',
        error: expect.stringMatching(MESSAGE),
      })
      expect(asideFiles(dir, 'employees.sqlite')).toHaveLength(1)
      await seedSnapshot(cache, rows(2))
      expect(cache.employeeCount()).toBe(2)
    })
  }
})

function captureError(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}
