import { describe, expect, it } from 'vitest'
import {
  changeEntryName,
  changeEntryNameParts,
  employeeNumberColumn,
  entryFacts,
  exportRowsOf,
  fieldChanges,
} from '../../../src/shared/change-rules'

describe('change rules', () => {
  it('lists each changed field from what to what, in the row’s order, added and dropped fields too', () => {
    const before = { UUID: 'u-1', employeeStatus: 'Active', payCycleId: 'PC-A', grade: 3, badge: 'B-1' }
    const after = { UUID: 'u-1', employeeStatus: 'On leave', payCycleId: 'PC-A', grade: 3, notes: null }
    expect(fieldChanges(before, after)).toEqual([
      { field: 'employeeStatus', before: 'Active', after: 'On leave' },
      { field: 'badge', before: 'B-1' },
      { field: 'notes', after: null },
    ])
  })

  it('compares values as JSON: 1 and "1" differ, equal nested values do not', () => {
    expect(fieldChanges({ n: 1, tags: ['a', 'b'] }, { n: '1', tags: ['a', 'b'] })).toEqual([
      { field: 'n', before: 1, after: '1' },
    ])
    expect(fieldChanges({ a: { b: [1] } }, { a: { b: [1] } })).toEqual([])
  })

  it('names an entry "First Last", or by its UUID when the row has no names', () => {
    expect(changeEntryName({ UUID: 'u-1', firstName: 'Zoë', lastName: 'Ångström' })).toBe('Zoë Ångström')
    expect(changeEntryName({ UUID: 'u-2', firstName: ' ', lastName: null })).toBe('u-2')
  })

  it('keeps the parts of that name apart, leaving out a blank or missing one', () => {
    expect(changeEntryNameParts({ UUID: 'u-1', firstName: '\u202eZoë', lastName: 'Ångström' })).toEqual({
      firstName: '\u202eZoë',
      lastName: 'Ångström',
    })
    expect(changeEntryNameParts({ UUID: 'u-2', firstName: ' ', lastName: 7 })).toEqual({})
  })

  it('takes the employee number from the first identifier column of digits', () => {
    expect(
      employeeNumberColumn([
        { key: 'email', role: 'email' },
        { key: 'staffNo', role: 'number' },
        { key: 'payrollId', role: 'number' },
      ]),
    ).toBe('staffNo')
    expect(employeeNumberColumn([{ key: 'email', role: 'email' }])).toBeUndefined()
  })

  it('reads number, status and pay cycle from a row, leaving out what it lacks', () => {
    const row = { UUID: 'u', staffNo: '0042', employeeStatus: 'Active', payCycleId: '' }
    expect(entryFacts(row, 'staffNo')).toEqual({ employeeNumber: '0042', status: 'Active' })
    expect(entryFacts(row, undefined)).toEqual({ status: 'Active' })
  })

  it('gives a changed employee one export row per field, anyone else one', () => {
    expect(exportRowsOf({})).toBe(1)
    expect(exportRowsOf({ fields: ['a', 'b'] })).toBe(2)
    expect(exportRowsOf({ changes: [{ field: 'a' }, { field: 'b' }, { field: 'c' }] })).toBe(3)
  })
})
