import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import type Database from 'better-sqlite3-multiple-ciphers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { locateCacheFolders } from '../../../../../src/main/core/cache/cache-folders'
import { moveCaches, nodeMoveFs, type MoveFs } from '../../../../../src/main/core/cache/cache-move'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { setAsideCache, setAsideDir } from '../../../../../src/main/core/cache/set-aside-cache'
import { WriterLock } from '../../../../../src/main/core/cache/writer-lock'
import type { Logger } from '../../../../../src/main/core/log/logger'
import { CACHE_FILE_NAME, profileCacheDir } from '../../../../../src/main/core/settings/profile-store'
import { settleCacheFolders } from '../../../../../src/main/core-host/process/serve-core-process'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'
import { TEST_CACHE_KEY, rawDatabase } from '../../../../helpers/test-cache-key'

/**
 * The move of the caches from the roaming data folder to the local one (decision 046): stopped at every step
 * (a fault-injecting MoveFs that throws at step k and at everything after, as a killed process does nothing more)
 * and started again, every employee is whole in one place or the other, and after the restart all of them are in
 * the local folder and nothing of theirs is left in the roaming one.
 */

/** The three sets of saved employees the fixture holds: p1's cache, p1's set-aside copy, p3's cache. */
const DATASETS = {
  p1: ['a1', 'a2', 'a3'],
  'p1-set-aside': ['s1', 's2'],
  p3: ['c1', 'c2', 'c3', 'c4'],
} as const
type Dataset = keyof typeof DATASETS

/** A dataset's folder relative to a root. */
function folderOf(dataset: Dataset): string {
  if (dataset === 'p1') return profileCacheDir('', 'p1')
  if (dataset === 'p1-set-aside') return setAsideDir(profileCacheDir('', 'p1'))
  return profileCacheDir('', 'p3')
}

/**
 * The employees of the cache in `dir`, read-only and straight from its files (the catalog's pointer, then the
 * snapshot's rows), so looking changes nothing between a cut-off move and the next start; undefined when there is
 * no cache or no snapshot there.
 */
function employeesIn(dir: string): string[] | undefined {
  const catalog = join(dir, CACHE_FILE_NAME)
  if (!existsSync(catalog)) return undefined
  const read = <T>(path: string, query: (db: Database.Database) => T): T => {
    const db = rawDatabase(path, { readonly: true, fileMustExist: true })
    try {
      return query(db)
    } finally {
      db.close()
    }
  }
  const file = read(catalog, (db) =>
    db.prepare('SELECT file FROM current_snapshot WHERE id = 1').pluck().get(),
  )
  if (typeof file !== 'string') return undefined
  return read(join(`${catalog}.snapshots`, file), (db) =>
    db.prepare('SELECT uuid FROM employees ORDER BY uuid').pluck().all().map(String),
  )
}

async function seedCache(dir: string, uuids: readonly string[]): Promise<void> {
  mkdirSync(dir, { recursive: true })
  const cache = openCacheDatabase(join(dir, CACHE_FILE_NAME), { key: TEST_CACHE_KEY })
  try {
    await seedSnapshot(
      cache,
      uuids.map((uuid) => employee(uuid, 'Ana', uuid, 'active')),
    )
  } finally {
    cache.close()
  }
}

interface FaultOptions {
  /** Throw at this mutating step (1-based) and at every call after it. */
  readonly failAt?: number
  /** Renames between the two roots fail with EXDEV, as across volumes. */
  readonly otherVolume?: boolean
  /** A rename from this path fails with EBUSY, as Windows refuses a folder with an open file. */
  readonly busy?: string
  /** Flush for real (nodeMoveFs's fsync); otherwise a flush is only counted as a step. */
  readonly flush?: boolean
}

/** MoveFs over the real one that counts its mutating steps and can fail like a crash, another volume or a lock. */
function faultFs(roots: { from: string; to: string }, options: FaultOptions): MoveFs & { steps(): number } {
  let steps = 0
  let dead = false
  const crash = (): never => {
    dead = true
    throw new Error('injected crash')
  }
  const alive = (): void => {
    if (dead) throw new Error('the process is gone')
  }
  const step = (): void => {
    alive()
    steps += 1
    if (steps === options.failAt) crash()
  }
  const rootOf = (path: string): string => (path.startsWith(roots.from + sep) ? 'from' : 'to')
  const fs: MoveFs = nodeMoveFs
  return {
    steps: () => steps,
    exists: (path) => (alive(), fs.exists(path)),
    isDirectory: (path) => (alive(), fs.isDirectory(path)),
    list: (path) => (alive(), fs.list(path)),
    readText: (path) => (alive(), fs.readText(path)),
    mkdir: (path) => (step(), fs.mkdir(path)),
    rename: (from, to) => {
      step()
      if (options.otherVolume === true && rootOf(from) !== rootOf(to)) {
        throw Object.assign(new Error('cross-device link not permitted'), { code: 'EXDEV' })
      }
      if (options.busy !== undefined && from === options.busy) {
        throw Object.assign(new Error('resource busy or locked'), { code: 'EBUSY' })
      }
      fs.rename(from, to)
    },
    remove: (path) => (step(), fs.remove(path)),
    copyFile: (from, to) => (step(), fs.copyFile(from, to)),
    writeText: (path, text) => (step(), fs.writeText(path, text)),
    // Unless asked, counted as a step and not made: these crashes are the process's, not the disk's, and
    // flushing costs seconds on a loaded machine.
    fsync: (path, directory) => {
      step()
      if (options.flush === true) fs.fsync(path, directory)
    },
  }
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    info: (message) => void lines.push(`info ${message}`),
    warn: (message) => void lines.push(`warn ${message}`),
    error: (message) => void lines.push(`error ${message}`),
  }
}

/** Every file and folder under `root`, relative, sorted. */
function tree(root: string): string[] {
  if (!existsSync(root)) return []
  return readdirSync(root, { recursive: true })
    .map((entry) => relative(root, join(root, String(entry))))
    .sort()
}

let fixture: { dir: string; cleanup: () => void }
let scratch: { dir: string; cleanup: () => void }
let runs = 0

beforeAll(async () => {
  fixture = makeTempDir('rosterdesk-move-fixture-')
  scratch = makeTempDir('rosterdesk-move-')
  const roaming = join(fixture.dir, 'Roaming', 'RosterDesk')
  // p1's first employees are set aside (a changed source, decision 039), then it syncs again; p3 has its own.
  await seedCache(join(roaming, folderOf('p1')), DATASETS['p1-set-aside'])
  setAsideCache(join(roaming, folderOf('p1')), {
    setAsideAt: '2026-11-01T00:00:00.000Z',
    employeeCount: DATASETS['p1-set-aside'].length,
  })
  await seedCache(join(roaming, folderOf('p1')), DATASETS.p1)
  await seedCache(join(roaming, folderOf('p3')), DATASETS.p3)
  writeFileSync(join(roaming, 'settings.json'), '{}')
  mkdirSync(join(roaming, 'logs'))
  writeFileSync(join(roaming, 'logs', 'main.log'), 'started\n')
})

afterAll(() => {
  scratch.cleanup()
  fixture.cleanup()
})

/** A fresh copy of the fixture: the roaming folder with the caches, an empty local one. */
function freshRoots(): { from: string; to: string } {
  runs += 1
  const base = join(scratch.dir, String(runs))
  cpSync(fixture.dir, base, { recursive: true })
  return { from: join(base, 'Roaming', 'RosterDesk'), to: join(base, 'Local', 'RosterDesk') }
}

/** Every dataset whole under `root`. */
function expectAllAt(root: string): void {
  for (const dataset of Object.keys(DATASETS) as Dataset[]) {
    expect(employeesIn(join(root, folderOf(dataset))), dataset).toEqual([...DATASETS[dataset]])
  }
}

function expectOnlySettingsLeft(from: string): void {
  expect(tree(from)).toEqual(['logs', join('logs', 'main.log'), 'settings.json'])
}

describe.each([
  { mode: 'one volume (renames)', otherVolume: false, how: 'renamed' },
  { mode: 'two volumes (copies)', otherVolume: true, how: 'copied' },
])('moving the caches across $mode', ({ otherVolume, how }) => {
  it('moves every profile, logs each, and leaves the settings and the log where they were', () => {
    const roots = freshRoots()
    const logger = recordingLogger()
    const report = moveCaches({ fs: faultFs(roots, { otherVolume, flush: true }), ...roots, logger })
    expect(report).toEqual({
      moved: [
        { profileId: 'p1', how },
        { profileId: 'p3', how },
      ],
      kept: [],
    })
    expectAllAt(roots.to)
    expectOnlySettingsLeft(roots.from)
    expect(tree(roots.to).filter((path) => !path.includes(sep))).toEqual([
      'cache',
      'cache-set-aside',
      'profiles',
    ])
    expect(logger.lines).toEqual([
      `info Moved profile p1's saved employees to ${roots.to} (${how})`,
      `info Moved profile p3's saved employees to ${roots.to} (${how})`,
    ])
    // A second start finds nothing to move.
    expect(moveCaches({ fs: nodeMoveFs, ...roots, logger: recordingLogger() })).toEqual({
      moved: [],
      kept: [],
    })
  })

  // Dozens of cut-off moves, each checked by reading every cache: generous, for a loaded machine.
  it(
    'cut off at any step, keeps every employee whole in one place or the other, and the next start finishes',
    { timeout: 180_000 },
    () => {
      const total = (() => {
        const roots = freshRoots()
        const fs = faultFs(roots, { otherVolume })
        moveCaches({ fs, ...roots, logger: recordingLogger() })
        return fs.steps()
      })()
      expect(total).toBeGreaterThan(otherVolume ? 20 : 6)
      for (let step = 1; step <= total; step += 1) {
        const roots = freshRoots()
        expect(
          () =>
            moveCaches({
              fs: faultFs(roots, { otherVolume, failAt: step }),
              ...roots,
              logger: recordingLogger(),
            }),
          // The crash, or what the failed step's clean-up met: a killed process does nothing more either way.
        ).toThrow(/injected crash|the process is gone/)
        // Stopped: each set of employees whole under its own name in one root or the other, and the caches the
        // app or the CLI would open now (locateCacheFolders) hold all of theirs.
        for (const dataset of Object.keys(DATASETS) as Dataset[]) {
          const there = [roots.from, roots.to].filter(
            (root) => employeesIn(join(root, folderOf(dataset)))?.join() === DATASETS[dataset].join(),
          )
          expect(there.length, `step ${step}: ${dataset}`).toBeGreaterThan(0)
        }
        const located = locateCacheFolders(existsSync, roots.from, roots.to)
        expect(employeesIn(located.cacheDir('p1')), `step ${step}`).toEqual([...DATASETS.p1])
        expect(employeesIn(located.cacheDir('p3')), `step ${step}`).toEqual([...DATASETS.p3])
        // The next start (on the same volumes) finishes or undoes it, and moves the rest. It is another process:
        // the writer lock the cut-off one held is stale (its owner is gone), as WriterLock judges by pid.
        moveCaches({
          fs: faultFs(roots, { otherVolume }),
          ...roots,
          logger: recordingLogger(),
          writerLock: { isAlive: () => false },
        })
        expect(
          tree(roots.to).filter((path) => path.endsWith('.sync-lock')),
          `step ${step}: a lock file left behind`,
        ).toEqual([])
        expectAllAt(roots.to)
        expectOnlySettingsLeft(roots.from)
        expect(
          tree(roots.to).filter((path) => /\.moving|\.moved|\.cache-move/.test(path)),
          `step ${step}`,
        ).toEqual([])
      }
    },
  )

  it('leaves a profile whose cache is in use where it is, used there, and moves it at a later start', () => {
    const roots = freshRoots()
    // p3's own folder, which moves whole; Windows refuses to rename it while a file in it is open.
    const p3 = join(roots.from, 'profiles', 'p3')
    const logger = recordingLogger()
    const report = moveCaches({ fs: faultFs(roots, { otherVolume, busy: p3 }), ...roots, logger })
    expect(report.moved).toEqual([{ profileId: 'p1', how }])
    expect(report.kept).toEqual([{ profileId: 'p3', reason: 'the cache is in use (moved at a later start)' }])
    expect(logger.lines).toContain(
      `warn Profile p3's saved employees stay in ${roots.from}: the cache is in use (moved at a later start)`,
    )
    expect(existsSync(join(roots.to, folderOf('p3')))).toBe(false)
    const located = locateCacheFolders(existsSync, roots.from, roots.to)
    expect(located.cacheDir('p3')).toBe(join(roots.from, folderOf('p3')))
    expect(employeesIn(located.cacheDir('p3'))).toEqual([...DATASETS.p3])
    expect(located.cacheDir('p1')).toBe(join(roots.to, folderOf('p1')))

    moveCaches({ fs: faultFs(roots, { otherVolume }), ...roots, logger: recordingLogger() })
    expectAllAt(roots.to)
    expectOnlySettingsLeft(roots.from)
  })
})

describe('moving the caches: what it never takes over', () => {
  it('leaves a cache whose sync lock is held', () => {
    const roots = freshRoots()
    // A live sync's lock (this process's pid, on this computer).
    const lock = WriterLock.acquire(join(roots.from, folderOf('p1'), CACHE_FILE_NAME), new Date())
    try {
      const report = moveCaches({ fs: nodeMoveFs, ...roots, logger: recordingLogger() })
      expect(report.kept).toEqual([
        { profileId: 'p1', reason: 'a sync holds the cache (moved at a later start)' },
      ])
      expect(employeesIn(join(roots.from, folderOf('p1')))).toEqual([...DATASETS.p1])
      expect(employeesIn(join(roots.from, folderOf('p1-set-aside')))).toEqual([...DATASETS['p1-set-aside']])
      expect(existsSync(join(roots.to, folderOf('p1')))).toBe(false)
      expect(employeesIn(join(roots.to, folderOf('p3')))).toEqual([...DATASETS.p3])
      expect(existsSync(lock.path)).toBe(true)
    } finally {
      lock.release()
    }
  })

  it.each([
    { mode: 'one volume', otherVolume: false },
    { mode: 'two volumes', otherVolume: true },
  ])(
    'holds the writer lock for the whole move on $mode: a sync that starts meanwhile is refused',
    ({ otherVolume }) => {
      const roots = freshRoots()
      const catalog = join(roots.from, folderOf('p3'), CACHE_FILE_NAME)
      const base = faultFs(roots, { otherVolume })
      const refusals: string[] = []
      // A `cli sync` starting at every step of p3's move (while its folder is still at the source).
      const p3 = join('profiles', 'p3')
      const trySync = (path: string): void => {
        if (!path.includes(p3) || !existsSync(join(roots.from, folderOf('p3')))) return
        try {
          WriterLock.acquire(catalog, new Date()).release()
          refusals.push('taken')
        } catch (error) {
          refusals.push((error as { code?: string }).code ?? 'other')
        }
      }
      const fs: MoveFs = {
        ...base,
        copyFile: (from, to) => (trySync(from), base.copyFile(from, to)),
        rename: (from, to) => (trySync(from), base.rename(from, to)),
      }
      const report = moveCaches({ fs, ...roots, logger: recordingLogger() })
      expect(report.moved.map((moved) => moved.profileId)).toEqual(['p1', 'p3'])
      expect(refusals.length).toBeGreaterThan(0)
      expect(new Set(refusals)).toEqual(new Set(['busy']))
      // The lock is let go, and never copied or left at the destination.
      expect(tree(roots.to).filter((path) => path.endsWith('.sync-lock'))).toEqual([])
      expect(tree(roots.from).filter((path) => path.endsWith('.sync-lock'))).toEqual([])
      expectAllAt(roots.to)
    },
  )

  it('leaves both copies when the destination already holds one (an older release ran since)', () => {
    const roots = freshRoots()
    cpSync(join(roots.from, folderOf('p3')), join(roots.to, folderOf('p3')), { recursive: true })
    const report = moveCaches({ fs: nodeMoveFs, ...roots, logger: recordingLogger() })
    expect(report.kept).toEqual([
      {
        profileId: 'p3',
        reason: `${join(roots.to, 'profiles', 'p3')} already exists; remove one of the two by hand`,
      },
    ])
    expect(employeesIn(join(roots.from, folderOf('p3')))).toEqual([...DATASETS.p3])
    expect(locateCacheFolders(existsSync, roots.from, roots.to).cacheDir('p3')).toBe(
      join(roots.from, folderOf('p3')),
    )
  })

  it('does nothing, and creates no folder, when there is nothing to move (a new install)', () => {
    const { dir, cleanup } = makeTempDir()
    try {
      const roots = { from: join(dir, 'Roaming'), to: join(dir, 'Local') }
      expect(moveCaches({ fs: nodeMoveFs, ...roots, logger: recordingLogger() })).toEqual({
        moved: [],
        kept: [],
      })
      expect(existsSync(roots.to)).toBe(false)
    } finally {
      cleanup()
    }
  })

  it("the core process's start moves the caches and opens each where it now is", async () => {
    const roots = freshRoots()
    const logger = recordingLogger()
    const caches = await settleCacheFolders(roots.from, roots.to, logger)
    expect(caches.root).toBe(roots.to)
    expect(caches.cacheDir('p1')).toBe(join(roots.to, folderOf('p1')))
    expect(caches.profileDir('p3')).toBe(join(roots.to, 'profiles', 'p3'))
    expect(employeesIn(caches.cacheDir('p3'))).toEqual([...DATASETS.p3])
    expect(logger.lines).toHaveLength(2)
  })

  it("the core process's start tells main before a copy across volumes begins and once it is over", async () => {
    const roots = freshRoots()
    const reports: string[] = []
    const copies = faultFs(roots, { otherVolume: true })
    // Each step of the copy says what was reported before it: the report leaves before the first file.
    const fs: MoveFs = {
      ...copies,
      copyFile: (from, to) => {
        reports.push('copying')
        copies.copyFile(from, to)
      },
    }
    const report = (type: string) => reports.push(type)
    const caches = await settleCacheFolders(roots.from, roots.to, recordingLogger(), { fs, report })
    expect(reports[0]).toBe('moving-caches')
    expect(reports.at(-1)).toBe('caches-settled')
    expect(reports.filter((entry) => entry === 'copying').length).toBeGreaterThan(0)
    expect(employeesIn(caches.cacheDir('p3'))).toEqual([...DATASETS.p3])
    // Nothing left to move: nothing to tell.
    reports.length = 0
    await settleCacheFolders(roots.from, roots.to, recordingLogger(), { fs, report })
    expect(reports).toEqual([])
  })
})
