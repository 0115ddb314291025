import { describe, expect, it } from 'vitest'
import { exportColumnLabel } from '../../../src/main/core/export/column-labels'

describe('exportColumnLabel', () => {
  it('uses hand-written labels for the fields the service is known to send', () => {
    expect(exportColumnLabel('UUID')).toBe('UUID')
    expect(exportColumnLabel('firstName')).toBe('First name')
    expect(exportColumnLabel('employeeStatus')).toBe('Status')
    expect(exportColumnLabel('payCycleId')).toBe('Pay cycle')
    expect(exportColumnLabel('hireDate')).toBe('Hire date')
    expect(exportColumnLabel('managerUUID')).toBe('Manager UUID')
  })

  it('splits other names into words, keeping acronyms and initialisms', () => {
    expect(exportColumnLabel('costCentreCode')).toBe('Cost centre code')
    expect(exportColumnLabel('departmentId')).toBe('Department ID')
    expect(exportColumnLabel('HRPartner')).toBe('HR partner')
    expect(exportColumnLabel('bank_iban')).toBe('Bank IBAN')
    expect(exportColumnLabel('address.line2')).toBe('Address line 2')
    expect(exportColumnLabel('x')).toBe('X')
    expect(exportColumnLabel('_')).toBe('_')
  })
})
