import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RowQuery } from '../../../../../src/shared/domain/query'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { systemClock } from '../../../../../src/main/core/clock'
import { queryRowSource } from '../../../../../src/main/core/export/export-query-source'
import { ExportService } from '../../../../../src/main/core/export/export-service'
import { inlineExportRunner } from '../../../../../src/main/core/export/inline-export-runner'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { useTestSandbox } from '../../../../helpers/sandbox'
import { syncFromSandbox } from '../../../../helpers/sync-from-sandbox'
import { aboutCells, readCsv, readXlsx, sheetNamed } from '../../../../helpers/xlsx-reader'
import { tempFolder } from '../../../../helpers/export-fixtures'
import { expectDataRows, expectedField } from '../../../../helpers/xlsx-expectations'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

/**
 * The export through the real cache and query engine: a sandbox synced into a cache file, exported as the app
 * would, read back with openpyxl and Python's csv module.
 */
describe('export from a synced cache', () => {
  const sandbox = useTestSandbox({ size: 700, seed: 11 })
  let folder: ReturnType<typeof tempFolder>
  let cache: CacheDatabase
  let queries: QueryEngine
  let exports: ExportService

  beforeAll(async () => {
    folder = tempFolder()
    cache = openCacheDatabase(join(folder.path, 'cache.db'), { key: TEST_CACHE_KEY })
    await syncFromSandbox(cache, sandbox(), { pageSize: 250, concurrency: 2 })
    queries = new QueryEngine(cache)
    exports = new ExportService({
      runner: inlineExportRunner({ queries }),
      clock: systemClock,
      context: () => ({
        environment: 'demo',
        tenantId: sandbox().credentials.tenantId,
        syncedAt: new Date(cache.lastCompleteRun()?.endedAt ?? 0),
      }),
    })
  })

  afterAll(() => {
    cache?.close()
    folder?.remove()
  })

  function engineRows(query: RowQuery): EmployeeRow[] {
    return [...queries.iterateRows(query, 100)].flat()
  }

  it('writes a pay cycle roster: exactly its employees, every column, in the engine order', async () => {
    const columns = queries.listColumns().map((column) => column.key)
    const filePath = join(folder.path, 'Roster PC-2026-11-A.xlsx')
    const result = await exports.exportToFile({
      request: { kind: 'roster', payCycleId: 'PC-2026-11-A', columns, format: 'xlsx' },
      filePath,
    })
    const inCycle = sandbox()
      .allEmployees()
      .filter((row) => row['payCycleId'] === 'PC-2026-11-A')
    expect(inCycle.length).toBeGreaterThan(50)
    expect(result).toEqual({ status: 'written', rows: inCycle.length, fileName: 'Roster PC-2026-11-A.xlsx' })

    const book = await readXlsx(filePath)
    const sheet = sheetNamed(book, 'Roster PC-2026-11-A')
    const uuidColumn = columns.indexOf('UUID')
    const written = sheet.rows.slice(1).map((row) => row[uuidColumn]?.v)
    expect(new Set(written)).toEqual(new Set(inCycle.map((row) => row['UUID'])))
    expectDataRows(
      sheet,
      engineRows({ payCycleIds: ['PC-2026-11-A'] }),
      columns.map((key) => ({ key })),
    )
    expect(sheet.rows[0]?.slice(0, 4).map((cell) => cell?.v)).toEqual([
      'UUID',
      'First name',
      'Last name',
      'Status',
    ])
    expect(aboutCells(book).get('Export')?.v).toBe('Roster of pay cycle PC-2026-11-A')
  })

  it('writes the filtered, sorted view as CSV, row for row as the engine lists it', async () => {
    const query: RowQuery = {
      statuses: ['Active', 'On leave'],
      sort: { column: 'hireDate', order: 'desc' },
    }
    const columns = ['lastName', 'firstName', 'employeeNumber', 'hireDate', 'annualSalary']
    const filePath = join(folder.path, 'Employees.csv')
    const result = await exports.exportToFile({
      request: { kind: 'view', query, columns, format: 'csv' },
      filePath,
    })
    const rows = engineRows(query)
    expect(result).toMatchObject({ status: 'written', rows: rows.length })
    expect(rows.length).toBe(queries.count(query))
    const csv = await readCsv(filePath)
    expect(csv.bom).toBe(true)
    expect(csv.records[0]).toEqual([
      'Last name',
      'First name',
      'Employee number',
      'Hire date',
      'Annual salary',
    ])
    expect(csv.records.slice(1)).toEqual(
      rows.map((row) => columns.map((key) => expectedField(row[key], key))),
    )
    // Leading zeros survive: the sandbox numbers its employees with them.
    expect(csv.records.slice(1).some((record) => record[2]?.startsWith('0'))).toBe(true)
  })

  it('reads through the engine in batches and lets go of it when stopped early', async () => {
    const source = queryRowSource(queries, {}, 128)
    expect(source.total).toBe(700)
    const seen: number[] = []
    for await (const batch of source.batches()) {
      seen.push(batch.length)
      if (seen.length === 2) break
    }
    expect(seen).toEqual([128, 128])
    // A full pass afterwards still works: the early stop released what it held.
    let total = 0
    for await (const batch of queryRowSource(queries, {}, 300).batches()) total += batch.length
    expect(total).toBe(700)
  })
})
