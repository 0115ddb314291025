import { describe, expect, it } from 'vitest'
import {
  changesExportFileName,
  defaultExportFileName,
  profileFileName,
  safeFileNamePart,
} from '../../../../../src/main/core/export/export-file-name'

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

describe('profileFileName (issue 33, point 7)', () => {
  it('starts every default name with the profile’s name, so two clients’ files never share one', () => {
    const view = defaultExportFileName({ kind: 'view', query: {}, columns: ['UUID'], format: 'xlsx' }, NOW)
    expect(profileFileName('Acme Ltd', view)).toBe('Acme Ltd – Employees 2026-11-22.xlsx')
    expect(profileFileName('Globex', view)).toBe('Globex – Employees 2026-11-22.xlsx')
    const roster = defaultExportFileName(
      { kind: 'roster', payCycleId: 'PC-MONTHLY', columns: ['UUID'], format: 'csv' },
      NOW,
    )
    expect(profileFileName('Acme Ltd', roster)).toBe('Acme Ltd – Roster PC-MONTHLY 2026-11-22.csv')
    expect(profileFileName('Acme Ltd', changesExportFileName(new Date(2026, 10, 22, 9, 30), 'xlsx'))).toBe(
      'Acme Ltd – Changes 2026-11-22 0930.xlsx',
    )
  })

  it('keeps only what Windows and macOS allow of the profile’s name, by the one rule', () => {
    const name = profileFileName(' ..Acme/Ltd: "UK" <Payroll>?*|\\. ', 'Employees 2026-11-22.xlsx')
    expect(name).toBe('Acme-Ltd- -UK- -Payroll----- – Employees 2026-11-22.xlsx')
    expect(name).not.toMatch(/[<>:"/\\|?*]/)
    // Nothing left of the name: the file's own name alone.
    expect(profileFileName(' . ', 'Employees 2026-11-22.xlsx')).toBe('Employees 2026-11-22.xlsx')
    // A leading dot would hide the file on macOS.
    expect(safeFileNamePart('.hidden')).toBe('hidden')
  })
})
