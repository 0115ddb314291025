import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { exportRequestSchema } from '../../../../../src/shared/domain/export'
import type { RowQuery } from '../../../../../src/shared/domain/query'
import type { ColumnInfo, EmployeeRow } from '../../../../../src/shared/domain/rows'
import { MAX_EXPORT_UUIDS } from '../../../../../src/shared/export-limits'
import { planExport } from '../../../../../src/main/core/export/export-plan'
import { ExportService } from '../../../../../src/main/core/export/export-service'
import { inlineExportRunner } from '../../../../../src/main/core/export/inline-export-runner'

const COLUMNS: ColumnInfo[] = [
  { key: 'UUID', label: 'UUID', kind: 'text', known: true },
  { key: 'lastName', label: 'Last name', kind: 'text', known: true },
]
const ROWS: EmployeeRow[] = Array.from({ length: 2_500 }, (_, i) => ({
  UUID: `uuid-${String(i).padStart(4, '0')}`,
  lastName: `Name ${i}`,
}))

/** The view's rows in its order: descending here, so the file's order is seen to be the view's. */
const queries = {
  reads: 0,
  count: (): number => ROWS.length,
  *iterateRows(_query: RowQuery, batchSize = 500): Generator<EmployeeRow[], void, undefined> {
    const ordered = [...ROWS].reverse()
    for (let start = 0; start < ordered.length; start += batchSize) {
      queries.reads += 1
      yield ordered.slice(start, start + batchSize)
    }
  },
  listColumns: (): ColumnInfo[] => COLUMNS,
}

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rosterdesk-chosen-'))
  queries.reads = 0
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('"Export selected rows"', () => {
  it('writes only the chosen employees, in the view order, and stops reading once all are written', async () => {
    const service = new ExportService({
      runner: inlineExportRunner({ queries }),
      clock: { now: () => Date.parse('2026-11-25T08:00:00Z') },
      context: () => ({ environment: 'demo', tenantId: '', syncedAt: null }),
    })
    const filePath = join(dir, 'chosen.csv')
    const result = await service.exportToFile({
      request: {
        kind: 'view',
        query: {},
        columns: ['UUID', 'lastName'],
        format: 'csv',
        uuids: ['uuid-2400', 'uuid-2498', 'uuid-0007-gone'],
      },
      filePath,
    })
    expect(result).toEqual({ status: 'written', rows: 2, fileName: 'chosen.csv' })
    const text = (await readFile(filePath, 'utf8')).replace(/^\uFEFF/, '')
    expect(text.split('\r\n')).toEqual(['UUID,Last name', 'uuid-2498,Name 2498', 'uuid-2400,Name 2400', ''])
    expect(queries.reads).toBe(3)

    queries.reads = 0
    const first = await service.exportToFile({
      request: { kind: 'view', query: {}, columns: ['UUID'], format: 'csv', uuids: ['uuid-2499'] },
      filePath: join(dir, 'one.csv'),
    })
    expect(first).toMatchObject({ status: 'written', rows: 1 })
    expect(queries.reads).toBe(1)
  })

  it('says in the About sheet how many were chosen, and bounds the list', () => {
    const plan = planExport(
      { kind: 'view', query: {}, columns: ['UUID'], format: 'xlsx', uuids: ['uuid-0001', 'uuid-0002'] },
      COLUMNS,
    )
    expect(plan.uuids).toEqual(['uuid-0001', 'uuid-0002'])
    expect(plan.about.chosenRows).toBe(2)
    const tooMany = Array.from({ length: MAX_EXPORT_UUIDS + 1 }, (_, i) => `u${i}`)
    const parsed = exportRequestSchema.safeParse({
      kind: 'view',
      query: {},
      columns: ['UUID'],
      format: 'csv',
      uuids: tooMany,
    })
    expect(parsed.success).toBe(false)
  })
})
