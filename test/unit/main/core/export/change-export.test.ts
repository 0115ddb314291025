import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ChangeEntry, ChangeKind } from '../../../../../src/shared/domain/changes'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import type { ChangeEntrySource } from '../../../../../src/main/core/changes/change-history'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { ChangeHistory } from '../../../../../src/main/core/changes/change-history'
import { rowsOf } from '../../../../../src/main/core/export/change-export'
import { exportRowsOf } from '../../../../../src/shared/change-rules'
import { MONEY_NUMBER_FORMAT } from '../../../../../src/shared/money'
import { ExportService, type ExportServiceDeps } from '../../../../../src/main/core/export/export-service'
import type { CoreJobs } from '../../../../../src/main/core-host/worker/core-jobs'
import { workerExportRunner } from '../../../../../src/main/core-host/worker/worker-exports'
import { inlineExportRunner } from '../../../../../src/main/core/export/inline-export-runner'
import { WorkerHost } from '../../../../../src/main/core-host/worker/worker-host'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { aboutCells, readCsv, readXlsx, sheetNamed } from '../../../../helpers/xlsx-reader'
import type { DumpedSheet } from '../../../../helpers/xlsx-reader'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'
import { tempFolder } from '../../../../helpers/export-fixtures'
import { testCoreWorkerEntry } from '../../../../helpers/core-worker-bundle'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

const BEFORE: EmployeeRow[] = [
  employee('u-1', 'Ann', 'Lee', 'Active', { employeeNumber: '0000001', payCycleId: 'PC-A', grade: 3 }),
  employee('u-2', 'Bo', 'Ng', 'Active', { employeeNumber: '0000002', payCycleId: 'PC-A', grade: 3 }),
  employee('u-3', 'Cy', 'Orr', 'Active', { employeeNumber: '0000003', payCycleId: 'PC-A', note: '=SUM(A1)' }),
]
const AFTER: EmployeeRow[] = [
  BEFORE[0]!,
  // Two fields changed, one of them a number; a formula-looking value must stay text.
  { ...BEFORE[2]!, employeeStatus: 'On leave', payCycleId: 'PC-B', note: '+44 line' },
  employee('u-4', 'Di', 'Park', 'Pending', { employeeNumber: '0000004', payCycleId: 'PC-B', grade: 2 }),
]

/** The export service of the app over a cache, at a fixed time; `extra` adds (or replaces) dependencies. */
function changesService(cache: CacheDatabase, extra: Partial<ExportServiceDeps> = {}): ExportService {
  const queries = new QueryEngine(cache)
  return new ExportService({
    runner: inlineExportRunner({ queries }),
    changes: new ChangeHistory({ cache, queries }),
    clock: { now: () => Date.UTC(2026, 10, 23, 9, 30) },
    context: () => ({ environment: 'demo', tenantId: 'ignored', syncedAt: null, appVersion: '9.9.9' }),
    ...extra,
  })
}

const texts = (sheet: DumpedSheet): Array<Array<string | number | boolean | null | undefined>> =>
  sheet.rows.map((row) => row.map((cell) => cell?.v))

describe('Export changes…', () => {
  let folder: ReturnType<typeof tempFolder>
  let cache: CacheDatabase
  let service: ExportService
  let runId: number
  beforeEach(async () => {
    folder = tempFolder()
    cache = openCacheDatabase(join(folder.path, 'cache.db'), { key: TEST_CACHE_KEY })
    service = changesService(cache)
    await seedSnapshot(cache, BEFORE)
    runId = (await seedSnapshot(cache, AFTER)).id
  })
  afterEach(() => {
    cache.close()
    folder.remove()
  })

  it('writes the same files on the core worker, which asks this thread for the entries', async () => {
    const host = new WorkerHost<CoreJobs>(await testCoreWorkerEntry(), { name: 'core worker' })
    const onWorker = changesService(cache, { runner: workerExportRunner(host, cache) })
    try {
      const path = (name: string) => join(folder.path, name)
      const here = await service.exportChanges({
        request: { runId, format: 'csv' },
        filePath: path('here.csv'),
      })
      const there = await onWorker.exportChanges({
        request: { runId, format: 'csv' },
        filePath: path('there.csv'),
      })
      expect(there).toEqual({ ...here, fileName: 'there.csv' })
      // Written there: the worker, started by nothing else, is up.
      expect(host.isRunning).toBe(true)
      expect(readFileSync(path('there.csv'), 'utf8')).toBe(readFileSync(path('here.csv'), 'utf8'))

      await service.exportChanges({ request: { runId, format: 'xlsx' }, filePath: path('here.xlsx') })
      const progress: number[] = []
      expect(
        await onWorker.exportChanges({
          request: { runId, format: 'xlsx' },
          filePath: path('there.xlsx'),
          onProgress: (value) => progress.push(value.rowsWritten),
        }),
      ).toEqual({
        status: 'written',
        rows: 5,
        fileName: 'there.xlsx',
        // One employee added, one removed (a row each), one changed in three fields (a row per field).
        changes: { added: 1, removed: 1, changed: 1, changedRows: 3 },
      })
      expect(progress.length).toBeGreaterThan(0)
      const [a, b] = [await readXlsx(path('here.xlsx')), await readXlsx(path('there.xlsx'))]
      expect(b.sheetNames).toEqual(a.sheetNames)
      for (const name of a.sheetNames) expect(texts(sheetNamed(b, name))).toEqual(texts(sheetNamed(a, name)))
      expect(readdirSync(folder.path).filter((file) => file.includes('.part'))).toEqual([])
    } finally {
      await host.stop()
    }
  })

  it('on the core worker, reads many batches of a source as asked, and ends its reading when cancelled', async () => {
    const host = new WorkerHost<CoreJobs>(await testCoreWorkerEntry(), { name: 'core worker' })
    const onWorker = workerExportRunner(host, cache)
    const ended: ChangeKind[] = []
    let closedReads = 0
    // 1,200 added employees, read a batch at a time, asynchronously, as a source of another kind might be.
    const source: ChangeEntrySource = {
      counts: { added: 1_200, removed: 0, changed: 0 },
      async *batches(kind, batchSize) {
        try {
          const total = kind === 'added' ? 1_200 : 0
          for (let start = 0; start < total; start += batchSize) {
            await new Promise((resolve) => setTimeout(resolve, 5))
            yield Array.from({ length: Math.min(batchSize, total - start) }, (_, i): ChangeEntry => {
              const n = start + i
              return { UUID: `u-${n}`, name: `Person ${n}`, employeeNumber: String(n).padStart(7, '0') }
            })
          }
        } finally {
          ended.push(kind)
        }
      },
      close: () => closedReads++,
    }
    const described = {
      run: {
        runId: 7,
        startedAt: '2026-11-23T09:00:00.000Z',
        endedAt: '2026-11-23T09:01:00.000Z',
        employeeCount: 1_200,
        firstSync: false,
        added: 1_200,
        removed: 0,
        changed: 0,
        entriesKept: true,
      },
    }
    const job = (name: string, onProgress?: () => void) => ({
      described,
      source,
      format: 'csv' as const,
      filePath: join(folder.path, name),
      about: {},
      now: Date.UTC(2026, 10, 23, 9, 30),
      ...(onProgress === undefined ? {} : { onProgress }),
    })
    try {
      const written = await onWorker.writeChanges(job('all.csv'), new AbortController().signal)
      expect(written.rows).toBe(1_200)
      const lines = readFileSync(join(folder.path, 'all.csv'), 'utf8').trim().split(/\r?\n/)
      expect(lines).toHaveLength(1_201)
      expect(lines.at(-1)).toContain('u-1199')
      expect(ended).toEqual(['added', 'removed', 'changed'])

      ended.length = 0
      const cancel = new AbortController()
      const cancelled = onWorker.writeChanges(
        job('cancelled.csv', () => cancel.abort()),
        cancel.signal,
      )
      await expect(cancelled).rejects.toMatchObject({ code: 'cancelled' })
      // The reading in progress was ended before the runner settled, so closing the source now is safe.
      expect(ended).toEqual(['added'])
      expect(
        readdirSync(folder.path).filter((file) => file.startsWith('cancelled') || file.includes('.part')),
      ).toEqual([])
      expect(closedReads).toBe(0)
    } finally {
      await host.stop()
    }
  })

  it('writes a sheet per kind and the About sheet, read back by openpyxl', async () => {
    const file = join(folder.path, 'changes.xlsx')
    const result = await service.exportChanges({ request: { runId, format: 'xlsx' }, filePath: file })
    expect(result).toEqual({
      status: 'written',
      rows: 5,
      fileName: 'changes.xlsx',
      changes: { added: 1, removed: 1, changed: 1, changedRows: 3 },
    })
    const book = await readXlsx(file)
    expect(book.sheetNames).toEqual(['Added', 'Removed', 'Changed', 'About this export'])
    const identity = ['Employee number', 'UUID', 'Name', 'Status', 'Pay cycle']
    expect(texts(sheetNamed(book, 'Added'))).toEqual([
      identity,
      ['0000004', 'u-4', 'Di Park', 'Pending', 'PC-B'],
    ])
    // The removed employee's last values.
    expect(texts(sheetNamed(book, 'Removed'))).toEqual([
      identity,
      ['0000002', 'u-2', 'Bo Ng', 'Active', 'PC-A'],
    ])
    const changed = sheetNamed(book, 'Changed')
    expect(texts(changed)).toEqual([
      [...identity, 'Field', 'Before', 'After'],
      ['0000003', 'u-3', 'Cy Orr', 'On leave', 'PC-B', 'Status', 'Active', 'On leave'],
      ['0000003', 'u-3', 'Cy Orr', 'On leave', 'PC-B', 'Pay cycle', 'PC-A', 'PC-B'],
      ['0000003', 'u-3', 'Cy Orr', 'On leave', 'PC-B', 'Note', '=SUM(A1)', '+44 line'],
    ])
    // Identifiers and formula-looking values stay text; each sheet has a bold, frozen, filterable header.
    expect(changed.rows[3]![6]).toMatchObject({ t: 's' })
    expect(changed.rows[1]![0]).toMatchObject({ t: 's' })
    expect(changed.rows[0]![0]?.bold).toBe(true)
    expect(changed.freezePanes).toBe('A2')
    expect(changed.autoFilter).toBe('A1:H4')

    const about = aboutCells(book)
    expect(about.get('Export')?.v).toBe('Employees one sync added, removed and changed')
    expect(about.get('Added')?.v).toBe(1)
    expect(about.get('Removed')?.v).toBe(1)
    expect(about.get('Changed')?.v).toBe(1)
    expect(about.get('Sheets')?.v).toBe('Added (1 row), Removed (1 row), Changed (3 rows)')
    expect(about.get('Rows')?.v).toBe(5)
    expect(about.get('Data synced')?.v).toEqual(expect.any(String))
    expect(about.get('Made with')?.v).toBe('RosterDesk 9.9.9')
  })

  it('writes one CSV with a Change column saying which list each row is from', async () => {
    const file = join(folder.path, 'changes.csv')
    await service.exportChanges({ request: { runId, format: 'csv' }, filePath: file })
    const csv = await readCsv(file)
    expect(csv.bom).toBe(true)
    expect(csv.records).toEqual([
      ['Change', 'Employee number', 'UUID', 'Name', 'Status', 'Pay cycle', 'Field', 'Before', 'After'],
      ['Added', '0000004', 'u-4', 'Di Park', 'Pending', 'PC-B', '', '', ''],
      ['Removed', '0000002', 'u-2', 'Bo Ng', 'Active', 'PC-A', '', '', ''],
      ['Changed', '0000003', 'u-3', 'Cy Orr', 'On leave', 'PC-B', 'Status', 'Active', 'On leave'],
      ['Changed', '0000003', 'u-3', 'Cy Orr', 'On leave', 'PC-B', 'Pay cycle', 'PC-A', 'PC-B'],
      ['Changed', '0000003', 'u-3', 'Cy Orr', 'On leave', 'PC-B', 'Note', "'=SUM(A1)", "'+44 line"],
    ])
  })

  it('lays out as many rows per entry as the shared rule says (the renderer’s fake counts with it)', () => {
    const entries = [
      { UUID: 'a', name: 'A' },
      { UUID: 'b', name: 'B', fields: ['x', 'y'] },
      { UUID: 'c', name: 'C', fields: ['x', 'y'], changes: [{ field: 'x' }, { field: 'y', after: 1 }] },
    ]
    for (const entry of entries) expect(rowsOf('Changed', entry)).toHaveLength(exportRowsOf(entry))
  })

  it('refuses a sync that is not in the history, leaving no file', async () => {
    const file = join(folder.path, 'gone.xlsx')
    await expect(
      service.exportChanges({ request: { runId: runId + 7, format: 'xlsx' }, filePath: file }),
    ).rejects.toMatchObject({ code: 'not-found' })
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(folder.path).filter((name) => name.endsWith('.part'))).toEqual([])
  })

  it('is cancelled like any export: no file, and the next export runs', async () => {
    const controller = new AbortController()
    controller.abort()
    const file = join(folder.path, 'cancelled.xlsx')
    expect(
      await service.exportChanges({
        request: { runId, format: 'xlsx' },
        filePath: file,
        signal: controller.signal,
      }),
    ).toEqual({ status: 'cancelled' })
    expect(existsSync(file)).toBe(false)
    expect(service.isRunning).toBe(false)
  })
})

describe('Export changes… with salaries', () => {
  const before = [
    employee('u-1', 'Ann', 'Lee', 'Active', {
      employeeNumber: '0000001',
      annualSalary: 58234.5,
      weeklyHours: 37.5,
    }),
  ]
  const after = [{ ...before[0]!, annualSalary: 61000, weeklyHours: 40 }]

  it('writes a changed salary as money, by the one rule the screen uses, and other numbers as they were', async () => {
    const folder = tempFolder()
    const cache = openCacheDatabase(join(folder.path, 'cache.db'), { key: TEST_CACHE_KEY })
    try {
      const service = changesService(cache)
      await seedSnapshot(cache, before)
      const runId = (await seedSnapshot(cache, after)).id

      const xlsx = join(folder.path, 'changes.xlsx')
      await service.exportChanges({ request: { runId, format: 'xlsx' }, filePath: xlsx })
      const changed = sheetNamed(await readXlsx(xlsx), 'Changed')
      const byField = new Map(changed.rows.slice(1).map((row) => [row[5]?.v, row]))
      const salary = byField.get('Annual salary')!
      // Numbers still (sums work), shown with two decimals and thousands separated, as the app shows them.
      expect(salary[6]).toMatchObject({ t: 'n', v: 58234.5, fmt: MONEY_NUMBER_FORMAT })
      expect(salary[7]).toMatchObject({ t: 'n', v: 61000, fmt: MONEY_NUMBER_FORMAT })
      const hours = byField.get('Weekly hours')!
      expect(hours[6]).toMatchObject({ t: 'n', v: 37.5 })
      expect(hours[6]?.fmt).not.toBe(MONEY_NUMBER_FORMAT)

      const csv = join(folder.path, 'changes.csv')
      await service.exportChanges({ request: { runId, format: 'csv' }, filePath: csv })
      const records = (await readCsv(csv)).records
      expect(records.find((record) => record[6] === 'Annual salary')?.slice(7)).toEqual([
        '58234.50',
        '61000.00',
      ])
      expect(records.find((record) => record[6] === 'Weekly hours')?.slice(7)).toEqual(['37.5', '40'])
    } finally {
      cache.close()
      folder.remove()
    }
  })
})
