import { describe, expect, it } from 'vitest'
import { defaultExportFileName, safeFileNamePart } from '../../../../../src/main/core/export/export-file-name'

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

  it('names a view export after its filters: the rows chosen, statuses, pay cycles and search', () => {
    const view = (query: object, uuids?: string[]) =>
      defaultExportFileName(
        { kind: 'view', query, columns: ['UUID'], format: 'xlsx', ...(uuids === undefined ? {} : { uuids }) },
        NOW,
      )
    expect(view({ statuses: ['Active'], payCycleIds: ['PC-MONTHLY'] })).toBe(
      'Employees – Active, PC-MONTHLY 2026-11-22.xlsx',
    )
    expect(view({ text: ' smith ' })).toBe('Employees – search smith 2026-11-22.xlsx')
    expect(view({ statuses: ['A', 'B', 'C', 'D'], payCycleIds: ['PC-1'] }, ['u1', 'u2'])).toBe(
      'Employees – 2 selected, 4 statuses, PC-1 2026-11-22.xlsx',
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
