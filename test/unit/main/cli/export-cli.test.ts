import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCacheDatabase } from '../../../../src/main/core/cache/cache-database'
import { columnLabel } from '../../../../src/main/core/columns/column-label'
import { QueryEngine } from '../../../../src/main/core/query/query-engine'
import type { RowQuery } from '../../../../src/shared/domain/query'
import { useTestSandbox } from '../../../helpers/sandbox'
import { syncFromSandbox } from '../../../helpers/sync-from-sandbox'
import { aboutCells, readCsv, readXlsx } from '../../../helpers/xlsx-reader'
import { runCliFromSource, runCliProcess } from '../../../helpers/run-cli'
import { tempFolder } from '../../../helpers/export-fixtures'
import { expectedField } from '../../../helpers/xlsx-expectations'
import { TEST_CACHE_KEY } from '../../../helpers/test-cache-key'

describe('cli export', () => {
  const sandbox = useTestSandbox({ size: 500, seed: 5 })
  let folder: ReturnType<typeof tempFolder>
  let db: string
  let columnKeys: string[]
  /** The headers the app's table shows for those columns. */
  let appLabels: string[]

  beforeAll(async () => {
    folder = tempFolder()
    db = join(folder.path, 'cache.db')
    const cache = openCacheDatabase(db, { key: TEST_CACHE_KEY })
    try {
      await syncFromSandbox(cache, sandbox(), { pageSize: 250, tenantId: 'tenant-demo' })
      const columns = new QueryEngine(cache).listColumns()
      columnKeys = columns.map((column) => column.key)
      appLabels = columns.map((column) => column.label)
    } finally {
      cache.close()
    }
  })

  afterAll(() => folder?.remove())

  function engineRows(query: RowQuery): Array<Record<string, unknown>> {
    const cache = openCacheDatabase(db, { key: TEST_CACHE_KEY, mustExist: true })
    try {
      return [...new QueryEngine(cache).iterateRows(query)].flat()
    } finally {
      cache.close()
    }
  }

  it('writes a roster with one --pay-cycle, every column by default, and prints rows and file', async () => {
    const out = join(folder.path, 'Roster PC-2026-11-B.xlsx')
    const run = await runCliProcess([
      'export',
      '--db',
      db,
      '--out',
      out,
      '--pay-cycle',
      'PC-2026-11-B',
      '--tenant',
      'tenant-from-the-command-line',
    ])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const inCycle = sandbox()
      .allEmployees()
      .filter((row) => row['payCycleId'] === 'PC-2026-11-B')
    expect(run.stdout).toBe(`${JSON.stringify({ rows: inCycle.length, file: out })}\n`)

    const book = await readXlsx(out)
    const sheet = book.sheets[0]!
    // The spreadsheet's headers are the app's headers, hand-written or derived.
    expect(sheet.rows[0]?.map((cell) => cell?.v)).toEqual(appLabels)
    expect(appLabels).toContain('Pay cycle')
    expect(appLabels).toEqual(columnKeys.map(columnLabel))
    expect(columnKeys.slice(0, 4)).toEqual(['UUID', 'firstName', 'lastName', 'employeeStatus'])
    expect(new Set(sheet.rows.slice(1).map((row) => row[0]?.v))).toEqual(
      new Set(inCycle.map((row) => row['UUID'])),
    )
    const about = aboutCells(book)
    expect(about.get('Export')?.v).toBe('Roster of pay cycle PC-2026-11-B')
    expect(about.get('Tenant')?.v).toBe('tenant-from-the-command-line')
  })

  it('says on the About sheet which service and tenant the cache was synced from, unless told otherwise', async () => {
    const out = join(folder.path, 'defaults.xlsx')
    const run = await runCliProcess(['export', '--db', db, '--out', out, '--columns', 'UUID,lastName'])
    expect(run.code).toBe(0)
    const about = aboutCells(await readXlsx(out))
    expect(about.get('Tenant')?.v).toBe('tenant-demo')
    expect(about.get('Environment')?.v).toBe(sandbox().baseUrl)
  })

  it('writes a filtered, sorted view as CSV with the chosen columns', async () => {
    const out = join(folder.path, 'active.csv')
    const run = await runCliProcess([
      'export',
      '--db',
      db,
      '--out',
      out,
      '--status',
      'Active',
      '--status',
      'Pending',
      '--pay-cycle',
      'PC-2026-11-A',
      '--sort',
      'lastName',
      '--order',
      'desc',
      '--columns',
      'UUID, lastName,employeeNumber',
    ])
    expect(run.code).toBe(0)
    const rows = engineRows({
      statuses: ['Active', 'Pending'],
      payCycleIds: ['PC-2026-11-A'],
      sort: { column: 'lastName', order: 'desc' },
    })
    expect(JSON.parse(run.stdout)).toEqual({ rows: rows.length, file: out })
    const csv = await readCsv(out)
    expect(csv.records[0]).toEqual(['UUID', 'Last name', 'Employee number'])
    expect(csv.records.slice(1)).toEqual(
      rows.map((row) => [
        expectedField(row['UUID'] as string),
        expectedField(row['lastName'] as string),
        expectedField(row['employeeNumber'] as string),
      ]),
    )
  })

  it('splits a large export over sheets with --rows-per-sheet', async () => {
    const out = join(folder.path, 'split.xlsx')
    const run = await runCliProcess([
      'export',
      '--db',
      db,
      '--out',
      out,
      '--columns',
      'UUID',
      '--rows-per-sheet',
      '201',
    ])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({ rows: 500, file: out })
    const book = await readXlsx(out)
    expect(book.sheetNames).toEqual(['Employees', 'Employees (2)', 'Employees (3)', 'About this export'])
    expect(book.sheets.slice(0, 3).map((sheet) => sheet.rows.length)).toEqual([201, 201, 101])
  })

  it('refuses an unknown file type in one line with exit code 2, writing nothing', async () => {
    const out = join(folder.path, 'roster.xls')
    const run = await runCliProcess(['export', '--db', db, '--out', out])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(run.stderr).toMatch(/--out must end in \.xlsx or \.csv/)
    expect(existsSync(out)).toBe(false)
    // `npm run cli` (tsx on the source) answers exactly as the bundle the other tests run.
    expect(await runCliFromSource(['export', '--db', db, '--out', out])).toEqual(run)
  })

  it('fails on a missing cache without creating it or the file', async () => {
    const missing = join(folder.path, 'nowhere.db')
    const out = join(folder.path, 'never.xlsx')
    const run = await runCliProcess(['export', '--db', missing, '--out', out])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^Export failed: There is no employee cache at /)
    expect(existsSync(missing)).toBe(false)
    expect(existsSync(out)).toBe(false)
  })

  it('fails on a column the cache does not know, writing nothing', async () => {
    const out = join(folder.path, 'bad-column.csv')
    const run = await runCliProcess(['export', '--db', db, '--out', out, '--columns', 'UUID,shoeSize'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/"shoeSize" is not in the employee data/)
    expect(existsSync(out)).toBe(false)
  })
})
