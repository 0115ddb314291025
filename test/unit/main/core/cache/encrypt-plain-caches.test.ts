import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import Database from 'better-sqlite3-multiple-ciphers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import {
  encryptPlainCaches,
  type EncryptionStep,
} from '../../../../../src/main/core/cache/encrypt-plain-caches'
import { setAsideCache, setAsideDir } from '../../../../../src/main/core/cache/set-aside-cache'
import { WriterLock } from '../../../../../src/main/core/cache/writer-lock'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { CACHE_FILE_NAME } from '../../../../../src/main/core/settings/profile-store'
import { checkSnapshotFormat, quickCheck } from '../../../../../src/main/core/snapshot/snapshot-schema'
import { CacheKey } from '../../../../../src/main/core/sqlite/cache-key'
import { openSqlite, type SqliteDatabase } from '../../../../../src/main/core/sqlite/sqlite-open'
import { logicalHash, makeTempDir } from '../../../../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'

/**
 * The encryption of a profile's plain caches at the first start of issue 34's version: stopped at every step, as a
 * kill does (the checkpoint throws there and at every later step, so nothing more happens, not even the clean-up)
 * and as a failure does (it throws once, the clean-up runs), and killed for real (SIGKILL in a child process) at a
 * few: every employee is then in the plain file or the encrypted one at its own name, never neither, and the next
 * start finishes the job. The fixture is written by the cache's own writers: a catalog whose last commit is still in
 * its WAL, two syncs (a snapshot and a change log), a set-aside copy, and a damaged file kept for support.
 */

const PLAIN_HEADER = Buffer.from('SQLite format 3\0', 'latin1')
const CACHE_EMPLOYEES = ['a1', 'a2', 'a3', 'a4']
const SET_ASIDE_EMPLOYEES = ['s1', 's2']
const DAMAGED = `${CACHE_FILE_NAME}.damaged-2026-12-01T09-00-00-000Z`
const key = CacheKey.create()
/**
 * The cache's own writers as the version before issue 34 ran them: every writer hands its key to `openSqlite` and
 * nothing else, and `openSqlite` without one writes a plain SQLite file, byte for byte what that version wrote.
 */
const BEFORE_ISSUE_34 = { key: undefined as unknown as CacheKey }

let dir: string
let cleanup: () => void
/** The fixture's profile cache folder (its set-aside copy beside it), never migrated itself. */
let template: string
/** Each SQLite file's rows (its WAL included), by its path relative to the cache folder's parent. */
let plainHashes: Map<string, string>
let cases = 0

const rows = (uuids: readonly string[]) => uuids.map((uuid) => employee(uuid, 'Ana', `Lee ${uuid}`, 'active'))

beforeAll(async () => {
  ;({ dir, cleanup } = makeTempDir('rosterdesk-encrypt-'))
  const source = join(dir, 'source', 'cache')
  mkdirSync(source, { recursive: true })
  const aside = openCacheDatabase(join(source, CACHE_FILE_NAME), BEFORE_ISSUE_34)
  await seedSnapshot(aside, rows(SET_ASIDE_EMPLOYEES))
  aside.close()
  setAsideCache(source, { setAsideAt: '2026-12-01T09:00:00.000Z', employeeCount: 2 })
  mkdirSync(source)
  const cache = openCacheDatabase(join(source, CACHE_FILE_NAME), BEFORE_ISSUE_34)
  await seedSnapshot(cache, rows(CACHE_EMPLOYEES.slice(0, 3)))
  // A second connection keeps the last one to close from folding the WAL in: the second sync's commit stays there.
  const holder = new Database(join(source, CACHE_FILE_NAME), { readonly: true })
  holder.prepare('SELECT count(*) FROM sync_runs').get()
  await seedSnapshot(cache, rows(CACHE_EMPLOYEES))
  cache.close()
  writeFileSync(join(source, DAMAGED), Buffer.concat([PLAIN_HEADER, Buffer.alloc(4080, 7)]), { mode: 0o600 })
  template = join(dir, 'template', 'cache')
  cpSync(join(dir, 'source'), join(dir, 'template'), { recursive: true })
  holder.close()
  expect(statSync(join(template, `${CACHE_FILE_NAME}-wal`)).size).toBeGreaterThan(0)
  expect(readdirSync(join(template, `${CACHE_FILE_NAME}.changes`))).toHaveLength(1)
  const scratch = copyOfTemplate()
  plainHashes = new Map(
    sqliteFiles(scratch)
      .filter((path) => !path.endsWith(DAMAGED))
      .map((path) => [relative(join(scratch, '..'), path), logicalHash(path, [], 'plain')]),
  )
  expect(plainHashes.size).toBe(5)
})

afterAll(() => cleanup())

/** A fresh copy of the fixture's two folders; returns its cache folder. */
function copyOfTemplate(): string {
  const root = join(dir, `case-${++cases}`)
  cpSync(join(template, '..'), root, { recursive: true })
  return join(root, 'cache')
}

/** Every regular file under the profile's two folders. */
function allFiles(cacheDir: string): string[] {
  const found: string[] = []
  const visit = (folder: string): void => {
    if (!existsSync(folder)) return
    for (const name of readdirSync(folder)) {
      const path = join(folder, name)
      if (statSync(path).isDirectory()) visit(path)
      else found.push(path)
    }
  }
  visit(cacheDir)
  visit(setAsideDir(cacheDir))
  return found.sort()
}

/** The database files (not their side files, the lock, the set-aside note or the migration's own files). */
function sqliteFiles(cacheDir: string): string[] {
  return allFiles(cacheDir).filter((path) => /\.sqlite(\.damaged-[^/]*)?$/.test(path))
}

function isPlain(path: string): boolean {
  return readFileSync(path).subarray(0, PLAIN_HEADER.length).equals(PLAIN_HEADER)
}

/** Opens a file as it is now: plain without a key, else with it. Read-only, so looking changes nothing. */
function read<T>(path: string, query: (db: SqliteDatabase) => T): T {
  const options = { readonly: true, fileMustExist: true } as const
  const db = isPlain(path) ? openSqlite(path, options) : openSqlite(path, { ...options, key })
  try {
    return query(db)
  } finally {
    db.close()
  }
}

/** The employees of the cache in `folder`, through its catalog's pointer, each file read plain or with the key. */
function employeesIn(folder: string): string[] {
  const catalog = join(folder, CACHE_FILE_NAME)
  const file = read(catalog, (db) =>
    db.prepare('SELECT file FROM current_snapshot WHERE id = 1').pluck().get(),
  )
  const snapshot = join(`${catalog}.snapshots`, String(file))
  return read(snapshot, (db) =>
    db.prepare('SELECT uuid FROM employees ORDER BY uuid').pluck().all().map(String),
  )
}

/** Every employee readable at the files' own names, and the change log's entries too. */
function expectEveryEmployeeReadable(cacheDir: string): void {
  expect(employeesIn(cacheDir)).toEqual(CACHE_EMPLOYEES)
  expect(employeesIn(setAsideDir(cacheDir))).toEqual(SET_ASIDE_EMPLOYEES)
  const changes = join(cacheDir, `${CACHE_FILE_NAME}.changes`)
  for (const name of readdirSync(changes).filter((name) => name.endsWith('.sqlite'))) {
    expect(read(join(changes, name), (db) => db.prepare('SELECT count(*) FROM entries').pluck().get())).toBe(
      1,
    )
  }
}

/** The end state: every file encrypted, 0600, with the rows it had; nothing of the migration left. */
function expectAllEncrypted(cacheDir: string): void {
  const root = join(cacheDir, '..')
  const files = allFiles(cacheDir)
  expect(files.filter((path) => /\.encrypting/.test(path))).toEqual([])
  expect(files.filter((path) => path.endsWith(DAMAGED))).toEqual([])
  for (const path of files) {
    if (process.platform !== 'win32') expect((statSync(path).mode & 0o777).toString(8)).toBe('600')
    expect(isPlain(path)).toBe(false)
  }
  const databases = sqliteFiles(cacheDir)
  expect(new Map(databases.map((path) => [relative(root, path), logicalHash(path, [], key)]))).toEqual(
    plainHashes,
  )
  for (const path of databases.filter((path) => path.includes('.snapshots'))) {
    // What the snapshot reader checks at open: the format, the length its header gives, every page.
    read(path, (db) => {
      checkSnapshotFormat(db, path)
      quickCheck(db, path)
    })
  }
  expectEveryEmployeeReadable(cacheDir)
}

/** Runs the migration with a checkpoint that throws at the `at`-th step passed (and after, when `dies`). */
function interruptAt(cacheDir: string, at: number, dies: boolean): EncryptionStep[] {
  const passed: EncryptionStep[] = []
  const run = (): unknown =>
    encryptPlainCaches(cacheDir, key, {
      checkpoint: (step) => {
        passed.push(step)
        if (passed.length === at || (dies && passed.length > at)) throw new Error(`stopped at ${step}`)
      },
    })
  expect(run).toThrow()
  return passed
}

describe('encryptPlainCaches', () => {
  it('encrypts every plain file of a profile, its set-aside copy included, and deletes a damaged one', () => {
    const cacheDir = copyOfTemplate()
    const steps: EncryptionStep[] = []
    const report = encryptPlainCaches(cacheDir, key, { checkpoint: (step) => steps.push(step) })
    expect(report.encrypted).toHaveLength(5)
    expect(report.removed).toEqual([join('cache', DAMAGED)])
    expect(report.resumed).toBe(false)
    expect(steps.filter((step) => step === 'synced')).toHaveLength(5)
    expect(steps.at(-1)).toBe('done')
    expectAllEncrypted(cacheDir)
    // The cache's own reader of the catalog: it migrates, checks and opens the encrypted file with the key.
    expect(read(join(cacheDir, CACHE_FILE_NAME), (db) => db.pragma('journal_mode', { simple: true }))).toBe(
      'delete',
    )
  })

  it('is stopped at every step, as by a kill: every employee in one file or the other, then finished', () => {
    const total = stepsOfOneRun()
    for (let at = 1; at <= total; at++) {
      const cacheDir = copyOfTemplate()
      const passed = interruptAt(cacheDir, at, true)
      expect(passed.at(-1), `step ${at}`).toBeDefined()
      expectEveryEmployeeReadable(cacheDir)
      encryptPlainCaches(cacheDir, key)
      expectAllEncrypted(cacheDir)
    }
  })

  it('fails at every step: before every copy is ready nothing changed, after it the next start finishes', () => {
    const total = stepsOfOneRun()
    for (let at = 1; at <= total; at++) {
      const cacheDir = copyOfTemplate()
      const passed = interruptAt(cacheDir, at, false)
      const placing = passed.includes('journal-written')
      if (!placing) {
        expect(
          allFiles(cacheDir).filter((path) => /\.encrypting/.test(path)),
          `step ${at}`,
        ).toEqual([])
        expect(sqliteFiles(cacheDir).every(isPlain), `step ${at}`).toBe(true)
      }
      expectEveryEmployeeReadable(cacheDir)
      encryptPlainCaches(cacheDir, key)
      expectAllEncrypted(cacheDir)
    }
  })

  it('is killed for real (SIGKILL) mid-copy, once its journal is written and mid-rename; a restart finishes', () => {
    for (const target of ['encrypted:3', 'journal-written', 'placed:2']) {
      const cacheDir = copyOfTemplate()
      const child = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          join('test', 'helpers', 'encrypt-kill-at-step.ts'),
          cacheDir,
          key.revealHex(),
          target,
        ],
        { encoding: 'utf8' },
      )
      expect(child.signal, `${target}: ${child.stderr}`).toBe('SIGKILL')
      expect(
        allFiles(cacheDir).some((path) => path.endsWith('.encrypting')),
        target,
      ).toBe(true)
      expectEveryEmployeeReadable(cacheDir)
      // The killed child's writer lock is stale (its process is gone) and taken over.
      expect(encryptPlainCaches(cacheDir, key).resumed).toBe(true)
      expectAllEncrypted(cacheDir)
    }
  })

  it('does nothing to an encrypted cache, without taking the lock, and waits while a sync holds it', () => {
    const cacheDir = copyOfTemplate()
    const live = WriterLock.acquire(join(cacheDir, CACHE_FILE_NAME), new Date())
    const busy = (): unknown => encryptPlainCaches(cacheDir, key)
    expect(busy).toThrow(RosterDeskError)
    expect(busy).toThrow(/Another RosterDesk sync is writing/)
    expect(sqliteFiles(cacheDir).every(isPlain)).toBe(true)
    live.release()
    encryptPlainCaches(cacheDir, key)
    const before = allFiles(cacheDir).map((path) => [path, statSync(path).mtimeMs])
    const again = WriterLock.acquire(join(cacheDir, CACHE_FILE_NAME), new Date())
    try {
      expect(encryptPlainCaches(cacheDir, key)).toEqual({ encrypted: [], removed: [], resumed: false })
    } finally {
      again.release()
    }
    expect(allFiles(cacheDir).map((path) => [path, statSync(path).mtimeMs])).toEqual(before)
  })
})

/** How many steps one whole run passes on the fixture. */
function stepsOfOneRun(): number {
  let count = 0
  encryptPlainCaches(copyOfTemplate(), key, { checkpoint: () => void count++ })
  return count
}
