import { describe, expect, it } from 'vitest'
import type { ExportRequest } from '../../../../../src/shared/domain/export'
import type { ColumnInfo } from '../../../../../src/shared/domain/rows'
import { exportRowQuery } from '../../../../../src/shared/export-rows'
import { checkExportRequest, planExport } from '../../../../../src/main/core/export/export-plan'
import { invokeChannels } from '../../../../../src/shared/ipc-contract'

const COLUMNS: ColumnInfo[] = [
  { key: 'lastName', label: 'Last name', kind: 'text', known: true },
  { key: 'hireDate', label: 'Hire date', kind: 'date', known: false },
]

describe('a roster with a saved view as its template', () => {
  it('is sorted as the view is, and its About sheet says so', () => {
    const plan = planExport(
      {
        kind: 'roster',
        payCycleId: 'PC-2026-11-B',
        statuses: ['On leave'],
        sort: { column: 'hireDate', order: 'desc' },
        columns: ['lastName', 'hireDate'],
        format: 'xlsx',
      },
      COLUMNS,
    )
    expect(plan.query).toEqual({
      payCycleIds: ['PC-2026-11-B'],
      statuses: ['On leave'],
      sort: { column: 'hireDate', order: 'desc' },
    })
    expect(plan.about).toEqual({
      kind: 'roster',
      payCycleId: 'PC-2026-11-B',
      statuses: ['On leave'],
      sort: { columnLabel: 'Hire date', order: 'desc' },
    })
  })

  it('keeps the cache’s order without one', () => {
    const request: ExportRequest = {
      kind: 'roster',
      payCycleId: 'PC-1',
      columns: ['lastName'],
      format: 'csv',
    }
    expect(exportRowQuery(request)).toEqual({ payCycleIds: ['PC-1'] })
    expect(planExport(request, COLUMNS).about).toEqual({ kind: 'roster', payCycleId: 'PC-1' })
  })

  it('refuses a sort column longer than any column name where the request comes in, before any query runs', () => {
    // Any characters name a column (decision 054: `x"; --` is looked up in the cache's list, and bound in SQL).
    const anyName: ExportRequest = {
      kind: 'roster',
      payCycleId: 'PC-1',
      sort: { column: 'x"; --', order: 'asc' },
      columns: ['lastName'],
      format: 'csv',
    }
    expect(invokeChannels['export:start'].args.safeParse([anyName]).success).toBe(true)
    const request: ExportRequest = {
      kind: 'roster',
      payCycleId: 'PC-1',
      sort: { column: 'x'.repeat(32_768), order: 'asc' },
      columns: ['lastName'],
      format: 'csv',
    }
    expect(invokeChannels['export:start'].args.safeParse([request]).success).toBe(false)
    expect(() => checkExportRequest(request)).toThrow(expect.objectContaining({ code: 'validation' }))
  })
})
