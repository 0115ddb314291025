import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ExportProgress, ExportRequest } from '../../../../../src/shared/domain/export'
import type { RowQuery } from '../../../../../src/shared/domain/query'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { systemClock } from '../../../../../src/main/core/clock'
import { ExportService } from '../../../../../src/main/core/export/export-service'
import { inlineExportRunner } from '../../../../../src/main/core/export/inline-export-runner'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import type { CoreJobs } from '../../../../../src/main/core-host/worker/core-jobs'
import { workerExportRunner } from '../../../../../src/main/core-host/worker/worker-exports'
import { WorkerHost } from '../../../../../src/main/core-host/worker/worker-host'
import { EmployeeGenerator } from '../../../../../src/main/sandbox/data'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { seedSnapshot } from '../../../../helpers/seed-snapshot'
import { testCoreWorkerEntry } from '../../../../helpers/core-worker-bundle'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

const COUNT = 4_000

/** View exports written by the core worker: the same file, progress, cancel and one-at-a-time rule. */
describe('exports on the core worker', () => {
  let cleanup: () => void
  let dir: string
  let cache: CacheDatabase
  let host: WorkerHost<CoreJobs>
  let exports: ExportService
  let columns: string[]

  beforeAll(async () => {
    const temp = makeTempDir()
    cleanup = temp.cleanup
    dir = temp.dir
    cache = openCacheDatabase(join(dir, 'cache.db'), { key: TEST_CACHE_KEY })
    const generator = new EmployeeGenerator(11, COUNT)
    await seedSnapshot(
      cache,
      Array.from({ length: COUNT }, (_, i) => generator.row(i) as unknown as EmployeeRow),
    )
    host = new WorkerHost<CoreJobs>(await testCoreWorkerEntry(), { name: 'core worker' })
    const queries = new QueryEngine(cache)
    columns = queries.listColumns().map((column) => column.key)
    exports = new ExportService({
      runner: workerExportRunner(host, cache),
      clock: systemClock,
      context: () => ({ environment: 'demo', tenantId: 'tenant-1', syncedAt: new Date() }),
    })
  })

  afterAll(async () => {
    await host.stop()
    cache.close()
    cleanup()
  })

  const view = {
    sort: { column: 'hireDate', order: 'desc' },
    statuses: ['Active', 'On leave', 'Pending'],
  } as const satisfies RowQuery
  const request = (format: 'xlsx' | 'csv'): ExportRequest => ({
    kind: 'view',
    query: { ...view, statuses: [...view.statuses] },
    columns,
    format,
  })

  it('loads exceljs on the worker while an XLSX export’s save dialog is open, and nothing for a CSV', async () => {
    // The idle clock is the test's, so "longer than the idle time" needs no real wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const idle = new WorkerHost<CoreJobs>(await testCoreWorkerEntry(), {
      name: 'core worker',
      idleStopMs: 200,
    })
    try {
      const prepare = workerExportRunner(idle, cache).prepare
      prepare('csv')()
      expect(idle.activeJobs).toBe(0)
      const release = prepare('xlsx')
      expect(idle.activeJobs).toBe(1)
      await vi.waitFor(() => expect(idle.activeJobs).toBe(0), { timeout: 30_000 })
      // The clerk takes longer than the idle time to choose a file: the worker, and exceljs in it, stay.
      vi.advanceTimersByTime(10_000)
      expect(idle.isRunning).toBe(true)
      expect(await idle.run('load-exceljs', null)).toEqual({ loaded: true, movedInternals: [] })
      release()
      vi.advanceTimersByTime(200)
      expect(idle.isRunning).toBe(false)
    } finally {
      vi.useRealTimers()
      await idle.stop()
    }
  })

  it('builds the page "Print…" prints on the worker, the same page this thread builds', async () => {
    const context = { environment: 'demo', tenantId: 'tenant-1', syncedAt: new Date(Date.UTC(2026, 10, 20)) }
    const now = Date.UTC(2026, 10, 23, 9, 30)
    const here = new ExportService({
      runner: inlineExportRunner({ queries: new QueryEngine(cache) }),
      clock: { now: () => now },
      context: () => context,
    })
    const onWorker = new ExportService({
      runner: workerExportRunner(host, cache),
      clock: { now: () => now },
      context: () => context,
    })
    for (const maxRows of [40, undefined]) {
      // The page's regional formats travel to the worker with the job.
      const options = { ...(maxRows === undefined ? {} : { maxRows }), locale: 'de-DE' }
      const there = await onWorker.preparePrint(request('xlsx'), options)
      expect(there).toEqual(await here.preparePrint(request('xlsx'), options))
      expect(there.html).toMatch(/>\d{2}\.\d{2}\.\d{4}<\/td>/)
      expect(there.rows).toBe(maxRows ?? there.total)
    }
  })

  it('holds a print to the machine policy’s row limit on the worker, and the page says why it stops there', async () => {
    const held = new ExportService({
      runner: workerExportRunner(host, cache),
      clock: systemClock,
      context: () => ({ environment: 'demo', tenantId: 'tenant-1', syncedAt: new Date() }),
      rules: { csvAllowed: true, maxRows: 25 },
    })
    const page = await held.preparePrint(request('xlsx'))
    expect(page.rows).toBe(25)
    expect(page.html.match(/<tr>/g)).toHaveLength(26)
    expect(page.html).toContain(
      `Only the first 25 of ${page.total.toLocaleString('en-US')} employees are printed. Your organisation allows at most 25 employees in one export or print; narrow the view to print the others.`,
    )
    // A lower bound of the page's own still applies, with its own advice.
    const shorter = await held.preparePrint(request('xlsx'), { maxRows: 10 })
    expect(shorter.rows).toBe(10)
    expect(shorter.html).toContain('Narrow the view, or export it to Excel for all of them.')
  })

  it('writes the whole view with progress, counting the rows as the main thread would', async () => {
    const file = join(dir, 'view.csv')
    const progress: ExportProgress[] = []
    const result = await exports.exportToFile({
      request: request('csv'),
      filePath: file,
      onProgress: (value) => progress.push(value),
    })
    const expected = new QueryEngine(cache).count({ ...view, statuses: [...view.statuses] })
    expect(result).toEqual({ status: 'written', rows: expected, fileName: 'view.csv' })
    expect(statSync(file).size).toBeGreaterThan(expected * 50)
    expect(progress.length).toBeGreaterThan(0)
    expect(exports.lastExportedFile()).toBe(file)
  })

  it('cancels: the worker removes its partial file and the export answers cancelled', async () => {
    const file = join(dir, 'cancelled.xlsx')
    const running = exports.exportToFile({
      request: request('xlsx'),
      filePath: file,
      onProgress: () => exports.cancel(),
    })
    expect(exports.isRunning).toBe(true)
    await expect(
      exports.exportToFile({ request: request('csv'), filePath: join(dir, 'second.csv') }),
    ).rejects.toMatchObject({ code: 'busy' })
    expect(await running).toEqual({ status: 'cancelled' })
    await exports.idle()
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(dir).filter((name) => name.includes('cancelled'))).toEqual([])
  })

  it('passes the worker’s own refusal through as a typed error', async () => {
    await expect(
      exports.exportToFile({
        request: { ...request('csv'), columns: ['noSuchColumn'] },
        filePath: join(dir, 'refused.csv'),
      }),
    ).rejects.toMatchObject({ code: 'validation' })
  })
})
