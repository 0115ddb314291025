import { closeSync, openSync, statSync, utimesSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { SnapshotReader } from '../../../../../src/main/core/snapshot/snapshot-reader'
import { makeTempDir, summaryFor } from '../../../../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

const PAGE = 4096

/** Overwrites a page of rows in the middle with 0xFF: what quick_check reads, not the schema an open reads. */
function scribbleMiddlePage(path: string): void {
  const offset = Math.floor(statSync(path).size / PAGE / 2) * PAGE
  const fd = openSync(path, 'r+')
  try {
    writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, offset)
  } finally {
    closeSync(fd)
  }
}

/** An export's worker trusts the check main's open ran on the same file; any other open checks again. */
describe('SnapshotReader.open with a file already checked', () => {
  let dir: string
  let cleanup: () => void
  let snapshot: string
  beforeEach(async () => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-checked-'))
    const cache = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY })
    await seedSnapshot(
      cache,
      Array.from({ length: 600 }, (_, i) => employee(`u-${i}`, `First${i}`, `Last${i}`, 'Active')),
    )
    snapshot = cache.currentSnapshotInfo()?.path ?? ''
    cache.close()
  })
  afterEach(() => cleanup())

  it('says what it checked: the file’s size and modification time', () => {
    const reader = SnapshotReader.open(snapshot, TEST_CACHE_KEY, 1)
    const stats = statSync(snapshot)
    expect(reader.checkedAs).toEqual({ size: stats.size, mtimeMs: stats.mtimeMs })
    reader.close()
  })

  it('skips the quick_check only for the unchanged file it is told was checked', () => {
    scribbleMiddlePage(snapshot)
    // Pinned, so the "already checked" fingerprint below names this very file (as main's open would have).
    utimesSync(snapshot, 1_700_000_000, 1_700_000_000)
    const { size, mtimeMs } = statSync(snapshot)

    // Unchecked, the damage is found.
    expect(() => SnapshotReader.open(snapshot, TEST_CACHE_KEY, 1)).toThrow(/damaged/)
    // Trusted: the same path, size and mtime open without the check.
    const trusted = SnapshotReader.open(snapshot, TEST_CACHE_KEY, 1, undefined, {
      alreadyChecked: { size, mtimeMs },
    })
    expect(trusted.isOpen).toBe(true)
    trusted.close()
    // A different mtime or size is another file: checked again.
    expect(() =>
      SnapshotReader.open(snapshot, TEST_CACHE_KEY, 1, undefined, {
        alreadyChecked: { size, mtimeMs: mtimeMs + 1000 },
      }),
    ).toThrow(/damaged/)
    expect(() =>
      SnapshotReader.open(snapshot, TEST_CACHE_KEY, 1, undefined, {
        alreadyChecked: { size: size + PAGE, mtimeMs },
      }),
    ).toThrow(/damaged/)
  })

  it('a cache opens the snapshot its own sync sealed without the check; any other cache checks it', () => {
    const sealing = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY })
    const info = sealing.currentSnapshotInfo()
    expect(info).not.toBeNull()
    scribbleMiddlePage(snapshot)
    utimesSync(snapshot, 1_700_000_000, 1_700_000_000)
    // As the app's sync runner does with the record its core worker's run ends with (the file as the worker's
    // connection found it just after the seal; completeRun keeps the same record inline).
    const { size, mtimeMs } = statSync(snapshot)
    sealing.adoptSealedSnapshot({ path: snapshot, checked: { size, mtimeMs } })
    expect(sealing.currentSnapshot()?.runId).toBe(info?.runId)
    sealing.close()

    // Another process, or this one after a restart: checked, and the damage found (the file set aside).
    const other = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY })
    expect(other.currentSnapshot()).toBeNull()
    expect(other.runs.lastRun()?.errorCode).toBe('damaged-cache')
    other.close()
  })

  it('a later run skips the whole-file check of the base its own process sealed, while the file is unchanged', async () => {
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => employee(`u-${i}`, `First${i}`, `Last${i}`, 'Active'))
    const verify = vi.spyOn(SnapshotReader.prototype, 'verify')
    try {
      const cache = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY })
      // Another process sealed the base (beforeEach): checked.
      await seedSnapshot(cache, rows(601))
      expect(verify).toHaveBeenCalledTimes(1)
      // This connection sealed it (completeRun): not checked again.
      await seedSnapshot(cache, rows(602))
      expect(verify).toHaveBeenCalledTimes(1)
      // Touched since: checked.
      const sealed = cache.currentSnapshotInfo()?.path ?? ''
      utimesSync(sealed, 1_700_000_000, 1_700_000_000)
      await seedSnapshot(cache, rows(603))
      expect(verify).toHaveBeenCalledTimes(2)
      // A run that failed (perhaps on its unchecked base) leaves the next one to check it.
      const { run, writer } = cache.runs.beginRun(
        { pageSize: 10, concurrency: 1, trackedPayCycles: [] },
        new Date(),
      )
      expect(verify).toHaveBeenCalledTimes(2)
      writer.discard()
      cache.runs.endRun({
        ...summaryFor(run.id, run.startedAt),
        status: 'failed',
        error: 'The payroll service could not be reached.',
        errorCode: 'network',
      })
      await seedSnapshot(cache, rows(603))
      expect(verify).toHaveBeenCalledTimes(3)
      await seedSnapshot(cache, rows(603))
      expect(verify).toHaveBeenCalledTimes(3)
      const record = cache.sealedSnapshot
      cache.close()

      // Another connection (the core worker's) checks it, unless told of the seal by the one that made it.
      const worker = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY })
      if (record !== null) worker.adoptSealedSnapshot(record)
      await seedSnapshot(worker, rows(604))
      expect(verify).toHaveBeenCalledTimes(3)
      worker.close()
      const fresh = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY })
      await seedSnapshot(fresh, rows(605))
      expect(verify).toHaveBeenCalledTimes(4)
      // A record of another file is not taken.
      if (record !== null) fresh.adoptSealedSnapshot(record)
      expect(fresh.sealedSnapshot?.path).not.toBe(record?.path)
      fresh.close()
    } finally {
      verify.mockRestore()
    }
  })

  it('takes a record only of the current snapshot, and trusts it only while the file is unchanged', () => {
    const cache = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY })
    scribbleMiddlePage(snapshot)
    utimesSync(snapshot, 1_700_000_000, 1_700_000_000)
    const { size, mtimeMs } = statSync(snapshot)
    // A record of another file: nothing taken, so the damage below is found.
    cache.adoptSealedSnapshot({ path: join(dir, 'another.sqlite'), checked: { size, mtimeMs } })
    expect(cache.sealedSnapshot).toBeNull()
    // A record of this file as it was before it changed: taken, but the open checks the file all the same.
    cache.adoptSealedSnapshot({ path: snapshot, checked: { size, mtimeMs: mtimeMs - 1000 } })
    expect(cache.sealedSnapshot?.path).toBe(snapshot)
    expect(cache.currentSnapshot()).toBeNull()
    expect(cache.runs.lastRun()?.errorCode).toBe('damaged-cache')
    cache.close()
  })
})
