import { describe, expect, it } from 'vitest'
import { cellText } from '../../../src/shared/cell-text'
import { formatMoney, isMoneyField, isMoneyValue, moneyCsvText } from '../../../src/shared/money'
import { EMPLOYEE_FIELDS } from '../../../src/main/sandbox/data'

describe('the money rule (shared/money.ts)', () => {
  it("finds the sandbox's one money field, annualSalary, and nothing else", () => {
    expect(EMPLOYEE_FIELDS.filter(isMoneyField)).toEqual(['annualSalary'])
  })

  it('judges a field by the words of its name', () => {
    for (const key of [
      'annualSalary',
      'salary',
      'hourlyRate',
      'day_rate',
      'bonusAmount',
      'NetPay',
      'grossPay',
      'carAllowance',
      'overtimePayment',
      'monthly-wage',
    ])
      expect(isMoneyField(key), key).toBe(true)
    for (const key of [
      'payCycleId',
      'costCentre',
      'taxRate',
      'interestRate',
      'salaryGrade2Code',
      'bonusPercent',
      'weeklyHours',
      'employeeNumber',
      'payrollNumber',
      'department',
      'hireDate',
    ])
      expect(isMoneyField(key), key).toBe(false)
  })

  it('formats only numbers in money fields', () => {
    expect(isMoneyValue('annualSalary', 58234.5)).toBe(true)
    expect(isMoneyValue('annualSalary', '58234.5')).toBe(false)
    expect(isMoneyValue('annualSalary', Number.NaN)).toBe(false)
    expect(isMoneyValue('weeklyHours', 37.5)).toBe(false)
    expect(cellText(58234.5, 'annualSalary', 'en')).toBe('58,234.50')
    expect(cellText(58234.5, 'weeklyHours', 'en')).toBe('58,234.5')
    expect(cellText(true, undefined, 'en')).toBe('Yes')
  })

  it('writes two places for the app and CSV, never rounding away what the service sent in a file', () => {
    expect(formatMoney(58234.5)).toBe('58,234.50')
    expect(formatMoney(-1250.755)).toBe('-1,250.76')
    expect(formatMoney(0)).toBe('0.00')
    expect(moneyCsvText(58234.5)).toBe('58234.50')
    expect(moneyCsvText(31000)).toBe('31000.00')
    expect(moneyCsvText(-0.1)).toBe('-0.10')
    expect(moneyCsvText(12.345)).toBe('12.345')
  })
})
