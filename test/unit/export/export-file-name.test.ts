import { describe, expect, it } from 'vitest'
import { defaultExportFileName, safeFileNamePart } from '../../../src/main/core/export/export-file-name'

const NOW = new Date(2026, 10, 22, 23, 59)

describe('defaultExportFileName', () => {
  it('names a roster after its pay cycle and the local day', () => {
    expect(
      defaultExportFileName(
        { kind: 'roster', payCycleId: 'PC-2026-11-A', columns: ['UUID'], format: 'xlsx' },
        NOW,
      ),
    ).toBe('Roster PC-2026-11-A 2026-11-22.xlsx')
  })

  it('names a view export "Employees" and uses the format as extension', () => {
    expect(defaultExportFileName({ kind: 'view', query: {}, columns: ['UUID'], format: 'csv' }, NOW)).toBe(
      'Employees 2026-11-22.csv',
    )
  })

  it('never proposes a character Windows refuses', () => {
    const name = defaultExportFileName(
      { kind: 'roster', payCycleId: 'PC:2026/11\\A*?"<>|.', columns: ['UUID'], format: 'xlsx' },
      NOW,
    )
    expect(name).toBe('Roster PC-2026-11-A------ 2026-11-22.xlsx')
    expect(name).not.toMatch(/[<>:"/\\|?*]/)
    expect(safeFileNamePart('trailing dots... ')).toBe('trailing dots')
    expect(safeFileNamePart('tab\tand\u0001control')).toBe('tab-and-control')
  })
})
