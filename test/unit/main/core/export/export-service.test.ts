import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ExportProgress } from '../../../../../src/shared/domain/export'
import type { RowQuery } from '../../../../../src/shared/domain/query'
import type { ColumnInfo, EmployeeRow } from '../../../../../src/shared/domain/rows'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import { checkExportRequest, planExport } from '../../../../../src/main/core/export/export-plan'
import { ExportService } from '../../../../../src/main/core/export/export-service'
import { inlineExportRunner } from '../../../../../src/main/core/export/inline-export-runner'
import { localTimeZone } from '../../../../../src/main/core/export/zoned-time'
import { aboutCells, readCsv, readXlsx, sheetNamed } from '../../../../helpers/xlsx-reader'
import { generatedRow, tempFolder } from '../../../../helpers/export-fixtures'

const COLUMNS: ColumnInfo[] = [
  { key: 'UUID', label: 'UUID', kind: 'text', known: true },
  { key: 'firstName', label: 'First name', kind: 'text', known: true },
  { key: 'lastName', label: 'Last name', kind: 'text', known: true },
  { key: 'employeeStatus', label: 'Status', kind: 'text', known: true },
  { key: 'hireDate', label: 'Hire date', kind: 'date', known: false },
  { key: 'payCycleId', label: 'Pay cycle id', kind: 'text', known: false },
]

/** A query engine stand-in: filters by pay cycle only, and records what it was asked. */
class FakeQueries {
  readonly asked: RowQuery[] = []
  closedEarly = false
  constructor(private readonly rows: EmployeeRow[]) {}

  private select(query: RowQuery): EmployeeRow[] {
    const cycles = query.payCycleIds
    return cycles === undefined
      ? this.rows
      : this.rows.filter((row) => cycles.includes(String(row['payCycleId'])))
  }

  count(query: RowQuery): number {
    return this.select(query).length
  }

  *iterateRows(query: RowQuery, batchSize = 500): Generator<EmployeeRow[], void, undefined> {
    this.asked.push(query)
    const rows = this.select(query)
    let finished = false
    try {
      for (let start = 0; start < rows.length; start += batchSize) yield rows.slice(start, start + batchSize)
      finished = true
    } finally {
      if (!finished) this.closedEarly = true
    }
  }

  listColumns(): ColumnInfo[] {
    return COLUMNS
  }
}

const ROWS = Array.from({ length: 3000 }, (_, index) => generatedRow(index))
const NOW = Date.parse('2026-11-22T09:00:00Z')

function service(queries: FakeQueries): ExportService {
  return new ExportService({
    runner: inlineExportRunner({ queries }),
    clock: { now: () => NOW },
    context: () => ({
      environment: 'production',
      tenantId: 'tenant-acme',
      syncedAt: new Date('2026-11-22T07:00:00Z'),
      appVersion: '1.2.3',
    }),
  })
}

describe('planExport', () => {
  it('turns a roster into a pay-cycle query and keeps the chosen column order, once each', () => {
    const plan = planExport(
      {
        kind: 'roster',
        payCycleId: 'PC-2026-11-A',
        columns: ['lastName', 'UUID', 'lastName'],
        format: 'xlsx',
      },
      COLUMNS,
    )
    expect(plan.query).toEqual({ payCycleIds: ['PC-2026-11-A'] })
    expect(plan.columns).toEqual([
      { key: 'lastName', label: 'Last name', kind: 'text' },
      { key: 'UUID', label: 'UUID', kind: 'text' },
    ])
    expect(plan.about).toEqual({ kind: 'roster', payCycleId: 'PC-2026-11-A' })
  })

  it('applies the status filter a roster asks for, and says so in the About sheet’s facts', () => {
    const plan = planExport(
      { kind: 'roster', payCycleId: 'PC-MONTHLY', statuses: ['Active'], columns: ['UUID'], format: 'csv' },
      COLUMNS,
    )
    expect(plan.query).toEqual({ payCycleIds: ['PC-MONTHLY'], statuses: ['Active'] })
    expect(plan.about).toEqual({ kind: 'roster', payCycleId: 'PC-MONTHLY', statuses: ['Active'] })
  })

  it('passes a view query through and describes its search, filters and sort', () => {
    const query = {
      text: 'smi',
      column: 'lastName',
      statuses: ['Active'],
      payCycleIds: ['PC-2026-11-B'],
      sort: { column: 'hireDate', order: 'desc' as const },
    }
    const plan = planExport({ kind: 'view', query, columns: ['payCycleId'], format: 'csv' }, COLUMNS)
    expect(plan.query).toEqual(query)
    expect(plan.columns).toEqual([{ key: 'payCycleId', label: 'Pay cycle', kind: 'text' }])
    expect(plan.about).toEqual({
      kind: 'view',
      search: { text: 'smi', columnLabel: 'Last name' },
      statuses: ['Active'],
      payCycleIds: ['PC-2026-11-B'],
      sort: { columnLabel: 'Hire date', order: 'desc' },
    })
  })

  it('refuses a column the cache does not know; checkExportRequest refuses a malformed request', () => {
    const unknown = (): unknown =>
      planExport({ kind: 'view', query: {}, columns: ['UUID', 'salary'], format: 'xlsx' }, COLUMNS)
    expect(unknown).toThrow(RosterDeskError)
    expect(unknown).toThrow(/"salary" is not in the employee data/)
    expect(() => checkExportRequest({ kind: 'view', query: {}, columns: [], format: 'xlsx' })).toThrow(
      'Choose at least one column to export.',
    )
    expect(() =>
      checkExportRequest({ kind: 'view', query: {}, columns: ['UUID'], format: 'pdf' as 'xlsx' }),
    ).toThrow(/not valid/)
  })
})

describe('ExportService', () => {
  let folder: ReturnType<typeof tempFolder>
  beforeEach(() => {
    folder = tempFolder()
  })
  afterEach(() => folder.remove())

  it('writes a roster with the About sheet filled from the context and remembers the file', async () => {
    const queries = new FakeQueries(ROWS)
    const exports = service(queries)
    const filePath = join(folder.path, 'Roster PC-2026-11-A 2026-11-22.xlsx')
    const progress: ExportProgress[] = []
    const result = await exports.exportToFile({
      request: {
        kind: 'roster',
        payCycleId: 'PC-2026-11-A',
        columns: ['UUID', 'lastName', 'hireDate'],
        format: 'xlsx',
      },
      filePath,
      onProgress: (event) => progress.push(event),
    })
    const expectedRows = ROWS.filter((row) => row['payCycleId'] === 'PC-2026-11-A')
    expect(result).toEqual({
      status: 'written',
      rows: expectedRows.length,
      fileName: 'Roster PC-2026-11-A 2026-11-22.xlsx',
    })
    expect(exports.lastExportedFile()).toBe(filePath)
    expect(exports.isRunning).toBe(false)
    expect(progress.at(-1)).toEqual({ rowsWritten: expectedRows.length, rowsTotal: expectedRows.length })

    const book = await readXlsx(filePath)
    const sheet = sheetNamed(book, 'Roster PC-2026-11-A')
    expect(sheet.rows[0]?.map((cell) => cell?.v)).toEqual(['UUID', 'Last name', 'Hire date'])
    expect(sheet.rows.slice(1).map((row) => row[0]?.v)).toEqual(expectedRows.map((row) => row['UUID']))
    const about = aboutCells(book)
    expect(about.get('Export')?.v).toBe('Roster of pay cycle PC-2026-11-A')
    expect(about.get('Environment')?.v).toBe('Production')
    expect(about.get('Tenant')?.v).toBe('tenant-acme')
    expect(about.get('Made with')?.v).toBe('RosterDesk 1.2.3')
    // The app names no zone, so the times are in the computer's own, and say which it is.
    const zone = `, ${localTimeZone()})`
    expect(about.get('Data synced')?.v).toMatch(/^2026-11-22 \d{2}:00 \(UTC[+-]\d{2}:\d{2}, /)
    expect(about.get('Data synced')?.v).toContain(zone)
    expect(about.get('File made')?.v).toMatch(/^2026-11-22 \d{2}:00 \(UTC[+-]\d{2}:\d{2}, /)
    expect(about.get('File made')?.v).toContain(zone)
  })

  it('writes a view as CSV', async () => {
    const exports = service(new FakeQueries(ROWS.slice(0, 10)))
    const filePath = join(folder.path, 'Employees 2026-11-22.csv')
    const result = await exports.exportToFile({
      request: { kind: 'view', query: {}, columns: ['firstName', 'employeeStatus'], format: 'csv' },
      filePath,
    })
    expect(result).toEqual({ status: 'written', rows: 10, fileName: 'Employees 2026-11-22.csv' })
    const csv = await readCsv(filePath)
    expect(csv.records[0]).toEqual(['First name', 'Status'])
    expect(csv.records).toHaveLength(11)
  })

  it('answers a cancel with status cancelled, stops reading and leaves no file', async () => {
    const queries = new FakeQueries(ROWS)
    const exports = service(queries)
    expect(exports.cancel()).toBe(false)
    const result = await exports.exportToFile({
      request: { kind: 'view', query: {}, columns: ['UUID'], format: 'xlsx' },
      filePath: join(folder.path, 'cancelled.xlsx'),
      onProgress: (event) => {
        if (event.rowsWritten >= 1000) expect(exports.cancel()).toBe(true)
      },
    })
    expect(result).toEqual({ status: 'cancelled' })
    expect(queries.closedEarly).toBe(true)
    expect(folder.files()).toEqual([])
    expect(exports.lastExportedFile()).toBeUndefined()
    expect(exports.isRunning).toBe(false)
  })

  it('honours an abort signal of the caller', async () => {
    const exports = service(new FakeQueries(ROWS))
    const controller = new AbortController()
    controller.abort()
    const result = await exports.exportToFile({
      request: { kind: 'view', query: {}, columns: ['UUID'], format: 'csv' },
      filePath: join(folder.path, 'aborted.csv'),
      signal: controller.signal,
    })
    expect(result).toEqual({ status: 'cancelled' })
    expect(folder.files()).toEqual([])
  })

  it('refuses a second export while one runs', async () => {
    const exports = service(new FakeQueries(ROWS))
    const first = exports.exportToFile({
      request: { kind: 'view', query: {}, columns: ['UUID'], format: 'xlsx' },
      filePath: join(folder.path, 'first.xlsx'),
    })
    await expect(
      exports.exportToFile({
        request: { kind: 'view', query: {}, columns: ['UUID'], format: 'xlsx' },
        filePath: join(folder.path, 'second.xlsx'),
      }),
    ).rejects.toMatchObject({ code: 'busy' })
    await expect(first).resolves.toMatchObject({ status: 'written', rows: ROWS.length })
    expect(folder.files()).toEqual(['first.xlsx'])
  })

  it('reports storage failures as errors, not as a result', async () => {
    const exports = service(new FakeQueries(ROWS.slice(0, 5)))
    await expect(
      exports.exportToFile({
        request: { kind: 'view', query: {}, columns: ['UUID'], format: 'xlsx' },
        filePath: join(folder.path, 'missing', 'x.xlsx'),
      }),
    ).rejects.toMatchObject({ code: 'storage' })
    expect(exports.isRunning).toBe(false)
  })
})
