import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { CATALOG_APPLICATION_ID, CATALOG_VERSION } from '../../../../../src/main/core/cache/catalog-schema'
import { SnapshotReader } from '../../../../../src/main/core/snapshot/snapshot-reader'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { fileHash, fingerprintCache, makeTempDir, summaryFor } from '../../../../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'
import { rawSnapshot } from '../../../../helpers/raw-snapshot'
import { TEST_CACHE_KEY, rawDatabase } from '../../../../helpers/test-cache-key'
import { LOCKED_CACHE_MESSAGE } from '../../../../../src/main/core/sqlite/sqlite-open'

const SETTINGS = { pageSize: 100, concurrency: 2, trackedPayCycles: [] }

describe('openCacheDatabase', () => {
  let dir: string
  let cleanup: () => void
  const open: CacheDatabase[] = []
  beforeEach(() => ({ dir, cleanup } = makeTempDir()))
  afterEach(() => {
    for (const cache of open.splice(0)) cache.close()
    cleanup()
  })
  const openCache = (name = 'cache.db', options = {}): CacheDatabase => {
    const cache = openCacheDatabase(join(dir, name), { key: TEST_CACHE_KEY, ...options })
    open.push(cache)
    return cache
  }

  it('creates a WAL catalog at the current schema version, and reopening changes nothing', () => {
    const cache = openCache()
    expect(cache.db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(cache.db.pragma('user_version', { simple: true })).toBe(CATALOG_VERSION)
    expect(cache.db.pragma('application_id', { simple: true })).toBe(CATALOG_APPLICATION_ID)
    cache.close()
    const again = openCache()
    expect(again.db.pragma('user_version', { simple: true })).toBe(CATALOG_VERSION)
    expect(again.employeeCount()).toBe(0)
    expect(again.currentSnapshot()).toBeNull()
  })

  it('migrates a version 1 catalog in place, keeping its run log', () => {
    const path = join(dir, 'v1.db')
    const raw = rawDatabase(path)
    raw.pragma(`application_id = ${CATALOG_APPLICATION_ID}`)
    raw.exec(`CREATE TABLE sync_runs (
      id INTEGER PRIMARY KEY AUTOINCREMENT, started_at TEXT NOT NULL, ended_at TEXT,
      status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'failed', 'cancelled')),
      total_count INTEGER NOT NULL DEFAULT 0, stored INTEGER NOT NULL DEFAULT 0, pages INTEGER NOT NULL DEFAULT 0,
      requests INTEGER NOT NULL DEFAULT 0, duration_ms REAL NOT NULL DEFAULT 0, error TEXT, change_report TEXT,
      snapshot_file TEXT NOT NULL, settings TEXT NOT NULL);
    CREATE INDEX sync_runs_status ON sync_runs (status, id);
    CREATE TABLE current_snapshot (id INTEGER PRIMARY KEY CHECK (id = 1),
      run_id INTEGER NOT NULL REFERENCES sync_runs (id), file TEXT NOT NULL, employee_count INTEGER NOT NULL,
      committed_at TEXT NOT NULL);
    INSERT INTO sync_runs (started_at, ended_at, status, error, snapshot_file, settings)
      VALUES ('2026-11-01T09:00:00.000Z', '2026-11-01T09:01:00.000Z', 'failed', 'Offline', 'gone.sqlite', '{}');`)
    raw.pragma('user_version = 1')
    raw.close()
    const cache = openCache('v1.db')
    expect(cache.db.pragma('user_version', { simple: true })).toBe(CATALOG_VERSION)
    expect(cache.runs.lastRun()).toMatchObject({ status: 'failed', error: 'Offline' })
    expect(cache.runs.lastRun()?.errorCode).toBeUndefined()
  })

  it('refuses a SQLite file that belongs to something else, and leaves it untouched', () => {
    const path = join(dir, 'other.db')
    const other = rawDatabase(path)
    other.exec(
      'CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5)',
    )
    other.close()
    const before = fileHash(path)
    expect(() => openCache('other.db')).toThrow(/not a RosterDesk employee cache/)
    expect(fileHash(path)).toBe(before)
  })

  it('refuses a cache written by a newer RosterDesk', () => {
    openCache().close()
    const raw = rawDatabase(join(dir, 'cache.db'))
    raw.pragma(`user_version = ${CATALOG_VERSION + 1}`)
    raw.close()
    expect(() => openCache()).toThrow(/newer version of RosterDesk/)
  })

  it('with mustExist, refuses a missing file without creating one, and a damaged file', () => {
    expect(() => openCache('missing.db', { mustExist: true })).toThrow(/no employee cache/)
    expect(existsSync(join(dir, 'missing.db'))).toBe(false)
    writeFileSync(join(dir, 'junk.db'), 'not a database, only text '.repeat(100))
    const error = captureError(() => openCache('junk.db', { mustExist: true }))
    expect(error).toBeInstanceOf(RosterDeskError)
    expect((error as RosterDeskError).code).toBe('damaged-cache')
    // A file whose first page does not decrypt reads as one locked with another key: the two cannot be told apart.
    expect((error as RosterDeskError).message).toBe(LOCKED_CACHE_MESSAGE)
    // A read-only open never renames the file the user named.
    expect(existsSync(join(dir, 'junk.db'))).toBe(true)
  })

  it('swaps snapshots in one step and deletes the replaced file', async () => {
    const cache = openCache()
    const first = await seedSnapshot(cache, [employee('u-1', 'Ann', 'Lee', 'Active')])
    const firstPath = cache.currentSnapshotInfo()?.path ?? ''
    expect(cache.employeeCount()).toBe(1)
    expect(cache.currentSnapshot()?.runId).toBe(first.id)

    const second = await seedSnapshot(cache, [
      employee('u-1', 'Ann', 'Lee', 'Active'),
      employee('u-2', 'Bo', 'Ng', 'Active'),
    ])
    expect(cache.currentSnapshot()?.runId).toBe(second.id)
    expect(cache.employeeCount()).toBe(2)
    expect(existsSync(firstPath)).toBe(false)
    expect(readdirSync(cache.snapshotDirectory)).toEqual([basename(cache.currentSnapshotInfo()?.path ?? '')])
    expect(cache.lastCompleteRun()?.changes).toMatchObject({ added: 1, removed: 0, changed: 0 })
  })

  it('logs a failed run without touching the current snapshot', async () => {
    const cache = openCache()
    await seedSnapshot(cache, [employee('u-1', 'Ann', 'Lee', 'Active')])
    const before = fingerprintCache(cache.path)
    const { run, writer } = cache.runs.beginRun(SETTINGS, new Date())
    writer.discard()
    cache.runs.endRun({
      ...summaryFor(run.id, run.startedAt),
      status: 'failed',
      error: 'The service said no.',
    })
    const after = fingerprintCache(cache.path)
    expect(after.catalog).toBe(before.catalog)
    expect(after.snapshotBytes).toBe(before.snapshotBytes)
    expect(after.runs.slice(0, before.runs.length)).toEqual(before.runs)
    expect(cache.runs.lastRun()).toMatchObject({
      id: run.id,
      status: 'failed',
      error: 'The service said no.',
    })
    expect(cache.lastCompleteRun()?.id).not.toBe(run.id)
  })

  it('refuses a second run while one is writing, in this process or another connection', () => {
    const cache = openCache()
    const { run, writer } = cache.runs.beginRun(SETTINGS, new Date())
    const other = openCache()
    expect(() => other.runs.beginRun(SETTINGS, new Date())).toThrow(
      new RegExp(
        `Another RosterDesk sync is writing these saved employees \\(pid ${process.pid}, since \\d\\d:\\d\\d\\)`,
      ),
    )
    writer.discard()
    cache.runs.endRun({ ...summaryFor(run.id, run.startedAt), status: 'cancelled' })
    expect(() => other.runs.beginRun(SETTINGS, new Date())).not.toThrow()
  })

  it('marks a run whose writer died as interrupted and deletes its file on the next open', async () => {
    const cache = openCache()
    await seedSnapshot(cache, [employee('u-1', 'Ann', 'Lee', 'Active')])
    const { run, writer } = cache.runs.beginRun(SETTINGS, new Date())
    writer.close() // the lock goes, as when the process is killed; the file stays behind
    cache.close()
    expect(existsSync(run.snapshotPath)).toBe(true)

    const reopened = openCache()
    expect(existsSync(run.snapshotPath)).toBe(false)
    expect(reopened.runs.lastRun()).toMatchObject({ id: run.id, status: 'failed' })
    expect(reopened.runs.lastRun()?.error).toMatch(/stopped unexpectedly/)
    expect(reopened.employeeCount()).toBe(1)
  })

  it('deletes files that no run names once nobody holds them', () => {
    const cache = openCache()
    const { writer } = cache.runs.beginRun(SETTINGS, new Date())
    writer.close()
    cache.db.prepare('DELETE FROM sync_runs').run()
    expect(readdirSync(cache.snapshotDirectory)).toHaveLength(1)
    cache.runs.sweep()
    expect(readdirSync(cache.snapshotDirectory)).toEqual([])
  })

  it('refuses to commit over a snapshot another run committed meanwhile', () => {
    const cache = openCache()
    const { run, writer } = cache.runs.beginRun(SETTINGS, new Date())
    // Another process finished first: simulate by committing directly through a second connection.
    const other = openCache()
    const competing = other.db
    competing
      .prepare(
        `INSERT INTO sync_runs (started_at, status, snapshot_file, settings) VALUES (?, 'complete', 'x', '{}')`,
      )
      .run(new Date().toISOString())
    competing
      .prepare(
        `INSERT INTO current_snapshot (id, run_id, file, employee_count, committed_at) VALUES (1, last_insert_rowid(), 'x', 0, 'now')`,
      )
      .run()
    expect(() => cache.runs.completeRun(run, summaryFor(run.id, run.startedAt), 0)).toThrow(
      /Another sync finished/,
    )
    writer.discard()
  })

  it('keeps a leased snapshot readable after a newer one is committed, then deletes it', async () => {
    const cache = openCache()
    await seedSnapshot(cache, [employee('u-1', 'Ann', 'Lee', 'Active')])
    const reader = cache.currentSnapshot() as SnapshotReader
    const release = reader.retain()
    await seedSnapshot(cache, [employee('u-2', 'Bo', 'Ng', 'Active')])
    expect(reader.isOpen).toBe(true)
    expect(rawSnapshot(reader).prepare('SELECT uuid FROM employees').pluck().all()).toEqual(['u-1'])
    release()
    expect(reader.isOpen).toBe(false)
    expect(existsSync(reader.path)).toBe(false)
  })

  it('never opens an unsealed snapshot file as a snapshot', () => {
    const cache = openCache()
    const { run, writer } = cache.runs.beginRun(SETTINGS, new Date())
    writer.close()
    expect(() => SnapshotReader.open(run.snapshotPath, TEST_CACHE_KEY, run.id)).toThrow(
      /saved employees are damaged/,
    )
  })
})

function captureError(work: () => unknown): unknown {
  try {
    work()
  } catch (error) {
    return error
  }
  return undefined
}
