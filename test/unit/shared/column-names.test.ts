import { describe, expect, it } from 'vitest'
import {
  COLUMN_NAME_MAX_LENGTH,
  MAX_COLUMNS,
  columnCountProblem,
  columnListProblem,
  columnNameProblem,
  quotedColumnName,
} from '../../../src/shared/column-names'
import { exportRequestSchema } from '../../../src/shared/domain/export'
import { employeeQuerySchema } from '../../../src/shared/domain/query'
import { checkExportRequest } from '../../../src/main/core/export/export-plan'

/** Decision 054: a column's name is data (any characters); the limits are Excel's, said with the number asked. */
describe('the column-name rule', () => {
  const ODD = [
    'Cost Center',
    'Job Title/Grade',
    '=HYPERLINK("x")',
    '+1',
    '@SUM',
    '-2',
    '__proto__',
    'a"b',
    '',
  ]

  it('takes any name up to the characters an Excel cell holds', () => {
    for (const name of [...ODD, 'NUL\u0000', 'half \ud800', 'x'.repeat(COLUMN_NAME_MAX_LENGTH)]) {
      expect(columnNameProblem(name), JSON.stringify(name.slice(0, 20))).toBeUndefined()
    }
    expect(columnNameProblem('x'.repeat(40_000))).toBe(
      'A column name can have at most 32,767 characters, the most an Excel cell holds; one has 40,000.',
    )
  })

  it('takes up to 16,384 columns, Excel’s last column XFD, and says the limit and the number asked past it', () => {
    expect(MAX_COLUMNS).toBe(16_384)
    expect(columnCountProblem(MAX_COLUMNS)).toBeUndefined()
    expect(columnCountProblem(20_004)).toBe(
      'An export can hold at most 16,384 columns, the most Excel opens; you asked for 20,004.',
    )
    expect(columnCountProblem(0)).toBe('Choose at least one column to export.')
    expect(columnListProblem(['a', 'x'.repeat(40_000)])).toMatch(/^A column name can have at most/)
  })

  it('is the IPC contract’s: an export request and a query take such names and counts', () => {
    const request = {
      kind: 'view',
      query: { sort: { column: 'a"b', order: 'asc' } },
      columns: ODD,
      format: 'xlsx',
    }
    expect(exportRequestSchema.safeParse(request).success).toBe(true)
    const wide = Array.from({ length: MAX_COLUMNS }, (_, i) => `f${i}`)
    expect(exportRequestSchema.safeParse({ ...request, columns: wide }).success).toBe(true)
    const over = exportRequestSchema.safeParse({ ...request, columns: [...wide, 'one more'] })
    expect(over.error?.issues[0]?.message).toBe(
      'An export can hold at most 16,384 columns, the most Excel opens; you asked for 16,385.',
    )
    expect(employeeQuerySchema.safeParse({ column: 'Job Title/Grade', text: 'x' }).success).toBe(true)
    const long = employeeQuerySchema.safeParse({ column: 'x'.repeat(40_000) })
    expect(long.error?.issues[0]?.message).toMatch(/^A column name can have at most 32,767 characters/)
  })

  it('refuses an export request from outside the contract (the CLI’s) with the rule’s own words', () => {
    const columns = Array.from({ length: 20_004 }, (_, i) => `f${i}`)
    expect(() => checkExportRequest({ kind: 'view', query: {}, columns, format: 'csv' })).toThrow(
      'An export can hold at most 16,384 columns, the most Excel opens; you asked for 20,004.',
    )
  })

  it('quotes a name in a message or log line escaped and cut, so it cannot forge a line', () => {
    expect(quotedColumnName('Cost Center')).toBe('"Cost Center"')
    expect(quotedColumnName('x\n2026-12-07T18:00:00.000Z ERROR forged\u001b[31m')).toBe(
      '"x\\n2026-12-07T18:00:00.000Z ERROR forged\\u001b[31m"',
    )
    expect(quotedColumnName('n'.repeat(5000))).toBe(`"${'n'.repeat(79)}…"`)
  })
})
