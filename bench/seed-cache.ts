import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { EmployeeRow } from '../src/shared/domain/rows'
import type { SyncRunSummary } from '../src/shared/domain/sync'
import type { CacheDatabase } from '../src/main/core/cache/cache-database'
import { openCacheDatabase } from '../src/main/core/cache/cache-database'
import { STORED_INDEX_VERSION } from '../src/main/core/query/stored-index'
import { commitSnapshot } from '../src/main/core/sync/commit-snapshot'
import { SnapshotBuilder, loadPreviousSnapshot } from '../src/main/core/sync/snapshot-builder'
import { EmployeeGenerator } from '../src/main/sandbox/data'
import { BENCH_CACHE_KEY } from './bench-cache-key'

/**
 * Commits `count` employees from the sandbox's generator as a snapshot, through the sync's own builder, writer
 * and commit but without HTTP: a million rows over HTTP would make the query bench take minutes for nothing.
 */
export async function seedGeneratedCache(
  cache: CacheDatabase,
  count: number,
  seed = 1,
  pageSize = 1000,
): Promise<SyncRunSummary> {
  const generator = new EmployeeGenerator(seed, count)
  const { run, writer } = cache.runs.beginRun({ pageSize, concurrency: 1, trackedPayCycles: [] }, new Date())
  const previous = await loadPreviousSnapshot(cache.currentSnapshot())
  const builder = new SnapshotBuilder(writer, previous)
  const uuids = new Set<string>()
  for (let start = 0; start < count; start += pageSize) {
    const rows: EmployeeRow[] = []
    for (let i = start; i < Math.min(count, start + pageSize); i++) {
      const row = generator.row(i) as unknown as EmployeeRow
      uuids.add(String(row['UUID']))
      rows.push(row)
    }
    builder.addPage({ pass: 1, page: start / pageSize + 1, position: start, rows })
  }
  const pages = Math.ceil(count / pageSize)
  const built = builder.finish({ pass: 1, totalCount: count, limit: pageSize, pages, uuids })
  return commitSnapshot({
    cache,
    run,
    writer,
    builder,
    built,
    previous,
    info: { run_id: String(run.id) },
    now: new Date(),
    summarize: () => ({
      id: run.id,
      status: 'complete',
      startedAt: run.startedAt,
      endedAt: new Date().toISOString(),
      totalCount: count,
      stored: built.stored,
      pages,
      requests: 0,
      durationMs: 0,
    }),
  })
}

/**
 * Fills the cache at `catalogPath` (a file in a directory of its own, beside which the snapshots and change logs
 * go) with `count` generated employees. Seeding a million takes a minute or more, so with
 * ROSTERDESK_BENCH_SEED_CACHE=<dir> the seeded directory is kept there, one per size and stored-index version,
 * and copied in by later runs: for iterating on a section, never for the figures a release records (delete the
 * directory when the seeding itself changes).
 */
export async function seedCacheFile(catalogPath: string, count: number): Promise<'seeded' | 'reused'> {
  const target = dirname(catalogPath)
  const keep = process.env['ROSTERDESK_BENCH_SEED_CACHE']
  const kept =
    keep === undefined || keep === '' ? null : join(keep, `${count}-index-v${STORED_INDEX_VERSION}`)
  if (kept !== null && existsSync(kept)) {
    cpSync(kept, target, { recursive: true })
    if (existsSync(catalogPath)) return 'reused'
  }
  mkdirSync(target, { recursive: true })
  const cache = openCacheDatabase(catalogPath, { key: BENCH_CACHE_KEY })
  try {
    await seedGeneratedCache(cache, count)
  } finally {
    cache.close()
  }
  if (kept !== null) {
    // Copied under another name first, so an interrupted copy is never taken for a whole one.
    const partial = `${kept}.partial`
    rmSync(partial, { recursive: true, force: true })
    cpSync(target, partial, { recursive: true })
    renameSync(partial, kept)
  }
  return 'seeded'
}
