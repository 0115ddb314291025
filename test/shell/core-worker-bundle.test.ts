import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { openCacheDatabase } from '../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../src/main/core/cache/cache-database'
import type { CoreJobs } from '../../src/main/core-host/worker/core-jobs'
import { coreWorkerEntry } from '../../src/main/core-host/worker/worker-entry'
import { coreProcessEntry } from '../../src/main/shell/core-process/core-process-channel'
import { WorkerHost } from '../../src/main/core-host/worker/worker-host'
import { buildSortOrder } from '../../src/main/core/query/sort-order'
import { EmployeeGenerator } from '../../src/main/sandbox/data'
import { ensureBuiltBundles, MAIN_BUNDLE } from '../helpers/built-bundles'
import { makeTempDir } from '../helpers/cache-test-helpers'
import { seedSnapshot } from '../helpers/seed-snapshot'
import { rawSnapshot } from '../helpers/raw-snapshot'
import { TEST_CACHE_KEY } from '../helpers/test-cache-key'
import { withCacheKey } from '../../src/main/core-host/worker/worker-cache-key'

const CORE_PROCESS_BUNDLE = join(dirname(MAIN_BUNDLE), 'core-process.js')

/** The chunks a bundle requires, and the chunks those require. */
function localChunks(file: string, seen = new Set<string>()): string[] {
  const code = readFileSync(file, 'utf8')
  for (const match of code.matchAll(/require\(["'](\.\.?\/[^"']+\.js)["']\)/g)) {
    const chunk = join(dirname(file), match[1] ?? '')
    if (seen.has(chunk)) continue
    seen.add(chunk)
    localChunks(chunk, seen)
  }
  return [...seen]
}

/**
 * The core worker as it ships: out/main/core-worker.js, an entry of the main build of its own, found beside the
 * main bundle and run by plain Node's worker_threads (it needs nothing of Electron).
 */
describe('the built core worker', () => {
  const built = join(dirname(MAIN_BUNDLE), 'core-worker.js')
  let cache: CacheDatabase
  let dir: string
  let host: WorkerHost<CoreJobs>

  beforeAll(async () => {
    await ensureBuiltBundles()
    const temp = makeTempDir()
    dir = temp.dir
    cache = openCacheDatabase(join(dir, 'cache.db'), { key: TEST_CACHE_KEY })
    const generator = new EmployeeGenerator(9, 500)
    await seedSnapshot(
      cache,
      Array.from({ length: 500 }, (_, i) => generator.row(i) as unknown as EmployeeRow),
    )
  }, 180_000)

  afterAll(async () => {
    await host?.stop()
    cache?.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('is built beside the core process bundle, which looks for it there, and the main bundle beside both', () => {
    expect(existsSync(built)).toBe(true)
    expect(existsSync(CORE_PROCESS_BUNDLE)).toBe(true)
    expect(coreWorkerEntry(dirname(CORE_PROCESS_BUNDLE))).toEqual({ file: built, execArgv: [] })
    expect(coreProcessEntry(dirname(MAIN_BUNDLE))).toEqual({ file: CORE_PROCESS_BUNDLE, execArgv: [] })
    const code = (entry: string) =>
      [entry, ...localChunks(entry)].map((f) => readFileSync(f, 'utf8')).join('\n')
    expect(code(CORE_PROCESS_BUNDLE)).toContain('core-worker.js')
    expect(code(MAIN_BUNDLE)).toContain('core-process.js')
    // Electron's main only routes: none of the engine's native or heavy modules is loaded there.
    expect(code(MAIN_BUNDLE)).not.toMatch(/require\(["'](better-sqlite3|exceljs)/)
    expect(code(CORE_PROCESS_BUNDLE)).toMatch(/require\(["']better-sqlite3-multiple-ciphers["']\)/)
    // Neither a worker thread nor a utility process has main's Electron APIs: nothing of Electron may reach
    // them, nor the chunks they share with main.
    for (const entry of [built, CORE_PROCESS_BUNDLE]) {
      for (const file of [entry, ...localChunks(entry)]) {
        expect(readFileSync(file, 'utf8')).not.toMatch(/require\(["']electron["']\)/)
      }
    }
    expect(localChunks(built).length).toBeGreaterThan(0)
  })

  it('runs under plain Node and builds what the query engine would', async () => {
    host = new WorkerHost<CoreJobs>(withCacheKey({ file: built, execArgv: [] }, TEST_CACHE_KEY), {
      name: 'built core worker',
    })
    const reader = cache.currentSnapshot()
    if (reader === null) throw new Error('no snapshot')
    const values = rawSnapshot(reader)
      .prepare('SELECT json_extract(row_json, \'$."hireDate"\') FROM employees ORDER BY id')
      .pluck()
      .all() as string[]
    const tieOrder = Uint32Array.from(values.keys())
    const order = await host.run('sort-order', {
      snapshotPath: reader.path,
      column: 'hireDate',
      kind: 'date',
      tieOrder: tieOrder.slice(),
    })
    expect([...order.order]).toEqual([...buildSortOrder(values, tieOrder).order])
    const index = await host.run('column-index', {
      snapshotPath: reader.path,
      column: 'department',
      kind: 'text',
    })
    expect(index.offsets.length).toBeGreaterThan(1)
    expect(index.postings.length).toBeGreaterThanOrEqual(500)
  })

  it('loads exceljs when asked, with the internals the export reaches where it expects them', async () => {
    const warnings: string[] = []
    const warned = (message: string) => warnings.push(message)
    const loading = new WorkerHost<CoreJobs>(
      { file: built, execArgv: [] },
      { name: 'built core worker', logger: { info: () => undefined, warn: warned, error: warned } },
    )
    try {
      expect(await loading.run('load-exceljs', null)).toEqual({ loaded: true, movedInternals: [] })
      expect(warnings).toEqual([])
    } finally {
      await loading.stop()
    }
  })
})
