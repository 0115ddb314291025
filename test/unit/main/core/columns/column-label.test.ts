import { describe, expect, it } from 'vitest'
import { columnLabel } from '../../../../../src/main/core/columns/column-label'

describe('columnLabel', () => {
  it('uses hand-written labels for the fields the service is known to send', () => {
    expect(columnLabel('UUID')).toBe('UUID')
    expect(columnLabel('firstName')).toBe('First name')
    expect(columnLabel('employeeStatus')).toBe('Status')
    expect(columnLabel('payCycleId')).toBe('Pay cycle')
    expect(columnLabel('hireDate')).toBe('Hire date')
    expect(columnLabel('managerUUID')).toBe('Manager UUID')
  })

  it('splits other names into words, keeping acronyms and initialisms', () => {
    expect(columnLabel('costCentreCode')).toBe('Cost centre code')
    expect(columnLabel('departmentId')).toBe('Department ID')
    expect(columnLabel('HRPartner')).toBe('HR partner')
    expect(columnLabel('bank_iban')).toBe('Bank IBAN')
    expect(columnLabel('address.line2')).toBe('Address line 2')
    expect(columnLabel('cost_centre')).toBe('Cost centre')
    expect(columnLabel('x')).toBe('X')
    expect(columnLabel('_')).toBe('_')
  })

  it('keeps a name written for people, not of a program’s shape, exactly as its label', () => {
    for (const name of [
      'Cost Center',
      'Job Title/Grade',
      '=HYPERLINK("x","y")',
      '+1',
      '@SUM',
      '-2',
      'Straße',
      '',
    ]) {
      expect(columnLabel(name)).toBe(name)
    }
  })
})
