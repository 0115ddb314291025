import { describe, expect, it } from 'vitest'
import { cellText } from '../../../src/shared/cell-text'
import {
  currencyCode,
  formatMoney,
  isMoneyColumn,
  isMoneyField,
  isMoneyValue,
  moneyCsvText,
  rowCurrency,
} from '../../../src/shared/money'
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

  it('writes a currency code before an amount, still with two places', () => {
    expect(formatMoney(58234.5, 'en', 'EUR')).toBe('EUR\u00a058,234.50')
    expect(formatMoney(-1250.755, 'en', 'USD')).toBe('-USD\u00a01,250.76')
    // In the clerk's regional formats, the code where that locale writes it.
    expect(formatMoney(58234.5, 'de-DE', 'EUR')).toBe('58.234,50\u00a0EUR')
    // A currency with no minor unit is still written to two places: one rule for every amount.
    expect(formatMoney(1000, 'en', 'JPY')).toBe('JPY\u00a01,000.00')
    expect(cellText(58234.5, 'annualSalary', 'en', 'GBP')).toBe('GBP\u00a058,234.50')
    // Not money: the currency changes nothing.
    expect(cellText(37.5, 'weeklyHours', 'en', 'GBP')).toBe('37.5')
  })

  it('takes the currency a row names, else the profile setting, else none', () => {
    expect(rowCurrency({ annualSalary: 1, currency: 'eur' })).toBe('EUR')
    expect(rowCurrency({ annualSalary: 1, currencyCode: 'CHF' }, 'EUR')).toBe('CHF')
    expect(rowCurrency({ currency: 'CHF', currencyCode: 'SEK' })).toBe('CHF')
    // A value that is not a code is passed over, for the next field or the setting.
    expect(rowCurrency({ currency: 'Euro', currencyCode: 'SEK' })).toBe('SEK')
    expect(rowCurrency({ currency: 12 }, 'GBP')).toBe('GBP')
    expect(rowCurrency({ annualSalary: 1 }, 'GBP')).toBe('GBP')
    expect(rowCurrency({ annualSalary: 1 })).toBeUndefined()
    expect(rowCurrency(undefined, '')).toBeUndefined()
    // Inherited names are not the row's fields.
    expect(rowCurrency(Object.create({ currency: 'EUR' }) as Record<string, unknown>)).toBeUndefined()
    expect(currencyCode(' usd ')).toBe('USD')
    for (const bad of ['', 'EU', 'EURO', 'E1R', '€', null, 3]) expect(currencyCode(bad)).toBeUndefined()
  })

  it('calls a column money only when it holds numbers in a money field', () => {
    expect(isMoneyColumn({ key: 'annualSalary', kind: 'number' })).toBe(true)
    expect(isMoneyColumn({ key: 'annualSalary', kind: 'text' })).toBe(false)
    expect(isMoneyColumn({ key: 'payCycleId', kind: 'text' })).toBe(false)
    expect(isMoneyColumn({ key: 'weeklyHours', kind: 'number' })).toBe(false)
  })
})
