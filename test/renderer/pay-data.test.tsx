import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ExportRequest } from '../../src/shared/domain/export'
import type { ColumnInfo } from '../../src/shared/domain/rows'
import { defaultWidthRem, headingLineChars } from '../../src/renderer/src/components/column-width'
import { defaultVisibleColumns, isPayColumn } from '../../src/renderer/src/hooks/use-visible-columns'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { bodyRows, column, renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

const COUNT = 40

const info = (key: string, label: string, kind: ColumnInfo['kind'] = 'text', known = false): ColumnInfo => ({
  key,
  label,
  kind,
  known,
})

/** The sandbox's columns, in the order main lists them (the spec's four first, then as discovered). */
const SANDBOX_COLUMNS: ColumnInfo[] = [
  info('UUID', 'UUID', 'text', true),
  info('firstName', 'First name', 'text', true),
  info('lastName', 'Last name', 'text', true),
  info('employeeStatus', 'Status', 'text', true),
  info('employeeNumber', 'Employee number'),
  info('email', 'Email'),
  info('department', 'Department'),
  info('jobTitle', 'Job title'),
  info('hireDate', 'Hire date', 'date'),
  info('annualSalary', 'Annual salary', 'number'),
  info('payCycleId', 'Pay cycle'),
  info('costCentre', 'Cost centre'),
  info('managerUUID', 'Manager UUID'),
]

function printRequests(calls: { channel: string; args: unknown[] }[]): ExportRequest[] {
  return calls.filter((call) => call.channel === 'export:print').map((call) => call.args[0] as ExportRequest)
}

describe('the default columns (use-visible-columns.ts, column-width.ts)', () => {
  it('put the pay cycle and the money right after who the employee is', () => {
    expect(defaultVisibleColumns(SANDBOX_COLUMNS)).toEqual([
      'lastName',
      'firstName',
      'employeeStatus',
      'employeeNumber',
      'payCycleId',
      'annualSalary',
      'department',
      'hireDate',
    ])
    // Any money field a service sends is pay data; a number that is not money is not.
    const other = [
      ...SANDBOX_COLUMNS,
      info('hourlyRate', 'Hourly rate', 'number'),
      info('weeklyHours', 'Weekly hours', 'number'),
    ]
    expect(defaultVisibleColumns(other).slice(4, 7)).toEqual(['payCycleId', 'annualSalary', 'hourlyRate'])
    expect(isPayColumn(info('weeklyHours', 'Weekly hours', 'number'))).toBe(false)
    // A service without pay data keeps the old defaults' shape.
    const noPay = SANDBOX_COLUMNS.filter((c) => !isPayColumn(c))
    expect(defaultVisibleColumns(noPay)).toEqual([
      'lastName',
      'firstName',
      'employeeStatus',
      'employeeNumber',
      'department',
      'hireDate',
      'jobTitle',
      'email',
    ])
  })

  it('all fit the 1366 px window’s grid with a 17 px scroll bar (about 67 rem), each heading on at most two lines', () => {
    const byKey = new Map(SANDBOX_COLUMNS.map((c) => [c.key, c]))
    const keys = defaultVisibleColumns(SANDBOX_COLUMNS)
    expect(keys).toHaveLength(8)
    const rem = keys.reduce((sum, key) => sum + defaultWidthRem(byKey.get(key)!), 0)
    // 1366 px less the filter panel (14 rem), the gaps and padding, the border and a 17 px scroll bar, at 16 px a rem.
    expect(rem).toBeLessThanOrEqual(67)
    // A heading's words still fit: "Employee number" on two lines, "Employee" over "number".
    expect(headingLineChars('Employee number')).toBe('Employee'.length)
    expect(headingLineChars('Date of last change')).toBe('last change'.length)
    expect(defaultWidthRem(byKey.get('employeeNumber')!)).toBeGreaterThanOrEqual(
      'Employee'.length * 0.6 + 1.9,
    )
  })
})

describe('pay data on screen', () => {
  it('writes amounts right-aligned with two decimals, in the row’s currency or the profile’s', async () => {
    const employees = makeEmployees(COUNT).map((row, i) => (i % 2 === 0 ? { ...row, currency: 'chf' } : row))
    renderWithCore({
      serviceEmployees: employees,
      synced: true,
      signedIn: true,
      settings: { currency: 'EUR' },
    })
    await screen.findByText(`${COUNT} of ${COUNT} employees`)
    await waitFor(() => expect(bodyRows().length).toBeGreaterThan(2))
    const texts = column('Annual salary')
    expect(texts.some((text) => /^CHF\u00a0\d{2},\d{3}\.00$/.test(text))).toBe(true)
    expect(texts.some((text) => /^EUR\u00a0\d{2},\d{3}\.00$/.test(text))).toBe(true)
    for (const text of texts) expect(text).toMatch(/^(CHF|EUR)\u00a0\d{2},\d{3}\.\d{2}$/)
    const cell = bodyRows()[0]!.querySelector('[data-col="annualSalary"]')!
    expect(cell.classList.contains('num')).toBe(true)
    expect(bodyRows()[0]!.querySelector('[data-col="payCycleId"]')!.classList.contains('num')).toBe(false)
  })

  it('"Hide pay" takes money off the table, the detail panel and Print…, and saves it in the profile', async () => {
    const { core } = renderWithCore({ serviceEmployees: makeEmployees(COUNT), synced: true, signedIn: true })
    await screen.findByText(`${COUNT} of ${COUNT} employees`)
    await waitFor(() => expect(column('Annual salary').length).toBeGreaterThan(0))
    const button = screen.getByRole('button', { name: 'Hide pay' })
    expect(button.getAttribute('aria-pressed')).toBe('false')

    fireEvent.click(button)
    expect(button.getAttribute('aria-pressed')).toBe('true')
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /Annual salary/ })).toBeNull())
    expect((await core.handlers['settings:get']()).settings.hidePay).toBe(true)
    expect(screen.getByRole('columnheader', { name: /Pay cycle/ })).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Print…' }))
    await waitFor(() => expect(printRequests(core.calls)).toHaveLength(1))
    expect(printRequests(core.calls)[0]?.columns).not.toContain('annualSalary')
    expect(printRequests(core.calls)[0]?.columns).toContain('payCycleId')

    // The detail panel says the amount is hidden rather than showing it.
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search employees' }), { key: 'ArrowDown' })
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' })
    const lastName = bodyRows()[0]!.querySelector('[data-col="lastName"]')!.textContent!
    const panel = await screen.findByRole('complementary', { name: new RegExp(lastName) })
    await within(panel).findByText('Hidden (Hide pay is on)')
    expect(panel.textContent).not.toMatch(/\d{2},\d{3}\.\d{2}/)

    // The column chooser keeps Annual salary chosen and says why it is not on screen.
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }))
    const chooser = screen.getByRole('group', { name: 'Show columns' })
    const salary = within(chooser).getByRole('checkbox', { name: /Annual salary/ }) as HTMLInputElement
    expect(salary.checked).toBe(true)
    expect(salary.closest('label')?.textContent).toBe('Annual salary (hidden by Hide pay)')
    expect(within(chooser).getByRole('list', { name: 'More fields from the service' })).toBeTruthy()
    expect(chooser.textContent).not.toContain('(from data)')
  })

  it('starts hidden when the profile says so, and shows pay again with one click', async () => {
    const { core } = renderWithCore({
      serviceEmployees: makeEmployees(COUNT),
      synced: true,
      signedIn: true,
      settings: { hidePay: true },
    })
    await screen.findByText(`${COUNT} of ${COUNT} employees`)
    await waitFor(() => expect(bodyRows().length).toBeGreaterThan(0))
    expect(screen.queryByRole('columnheader', { name: /Annual salary/ })).toBeNull()
    const button = screen.getByRole('button', { name: 'Hide pay' })
    expect(button.getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(button)
    await screen.findByRole('columnheader', { name: /Annual salary/ })
    expect((await core.handlers['settings:get']()).settings.hidePay).toBe(false)
  })
})
