import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { openCacheDatabase } from '../src/main/core/cache/cache-database'
import { QueryEngine } from '../src/main/core/query/query-engine'
import type { CacheKey } from '../src/main/core/sqlite/cache-key'
import { CACHE_FILE_NAME } from '../src/main/core/settings/profile-store'
import { percentiles } from './bench-kit'
import { benchQueries } from './query-bench'
import { seedGeneratedCache } from './seed-cache'

/**
 * One measurement of the cipher bench (cipher-bench.ts) in a process of its own, its cipher set by cipher-hook.ts:
 *
 *   node --import tsx --import bench/cipher-hook.ts bench/cipher-child.ts write <folder> <rows>
 *   node --import tsx --import bench/cipher-hook.ts bench/cipher-child.ts read <folder> <rows>
 *
 * Prints one JSON line: each phase's wall and CPU milliseconds (user + system of this process).
 */

export interface Phase {
  readonly wallMs: number
  readonly cpuMs: number
}

export interface WriteFigures {
  readonly write: Phase
  readonly snapshotBytes: number
  readonly plainHeader: boolean
}

export interface ReadFigures {
  /** Catalog and snapshot opened, the first page of the default order answered. */
  readonly firstRows: Phase
  /** The first sort on a column (built on first use from every row). */
  readonly firstQuery: Phase
  /** The 200-query mix's first pass, its first-use builds included. */
  readonly firstUse: Phase
  /** Its second pass, each query timed. */
  readonly warm: Phase & { readonly median: number; readonly p95: number }
  /** Every row read in the default order, as an export reads them. */
  readonly exportRead: Phase & { readonly rows: number }
}

/**
 * The cache opened without a key of its own: cipher-hook.ts has given every connection its cipher already (or none,
 * for `plain`), and the writers hand their key to nothing but `openSqlite`, which adds no pragma without one.
 */
const CIPHER_BY_HOOK = { key: undefined as unknown as CacheKey }

async function timed<T>(work: () => T | Promise<T>): Promise<{ value: T; phase: Phase }> {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const value = await work()
  const used = process.cpuUsage(cpu)
  return { value, phase: { wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 } }
}

async function write(folder: string, rows: number): Promise<WriteFigures> {
  mkdirSync(folder, { recursive: true })
  const catalog = join(folder, CACHE_FILE_NAME)
  const cache = openCacheDatabase(catalog, CIPHER_BY_HOOK)
  const { phase } = await timed(() => seedGeneratedCache(cache, rows))
  cache.close()
  const snapshots = `${catalog}.snapshots`
  const file = join(snapshots, readdirSync(snapshots)[0] ?? '')
  return {
    write: phase,
    snapshotBytes: statSync(file).size,
    plainHeader: readFileSync(file).subarray(0, 15).toString('latin1') === 'SQLite format 3',
  }
}

async function read(folder: string, rows: number): Promise<ReadFigures> {
  const { value: opened, phase: firstRows } = await timed(() => {
    const cache = openCacheDatabase(join(folder, CACHE_FILE_NAME), { ...CIPHER_BY_HOOK, mustExist: true })
    const engine = new QueryEngine(cache)
    const page = engine.query({ limit: 100 })
    if (page.rows.length !== 100) throw new Error('cipher bench: no first rows')
    return { cache, engine }
  })
  const { engine, cache } = opened
  const { phase: firstQuery } = await timed(() =>
    engine.query({ limit: 100, sort: { column: 'annualSalary', order: 'desc' }, facets: true }),
  )
  const mix = benchQueries(200, rows)
  // The mix's first pass builds what its sorts and column searches need (decision 003), from every row.
  const { phase: firstUse } = await timed(() => {
    for (const query of mix) engine.query(query)
  })
  const times: number[] = []
  const { phase: warmPhase } = await timed(() => {
    for (const query of mix) {
      const start = performance.now()
      engine.query(query)
      times.push(performance.now() - start)
    }
  })
  const { median, p95 } = percentiles(times)
  const { value: count, phase: exportPhase } = await timed(() => {
    let seen = 0
    for (const batch of engine.iterateRows({}, 1000)) seen += batch.length
    return seen
  })
  cache.close()
  return {
    firstRows,
    firstQuery,
    firstUse,
    warm: { ...warmPhase, median, p95 },
    exportRead: { ...exportPhase, rows: count },
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const [mode, folder, rows] = argv
  if (folder === undefined || rows === undefined) throw new Error('usage: write|read <folder> <rows>')
  const figures = mode === 'write' ? await write(folder, Number(rows)) : await read(folder, Number(rows))
  process.stdout.write(`${JSON.stringify(figures)}\n`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
