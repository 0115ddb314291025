import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ExportRequest } from '../../src/shared/domain/export'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

/**
 * The clerk's regional formats in the window over the fake core: main's `systemLocale` (Electron's
 * `app.getSystemLocale()`) decides how the table, the detail panel, the counts and the printed page write numbers
 * and dates; Settings → Regional formats overrides it; the words stay English.
 */

function employees(count: number): EmployeeRow[] {
  return makeEmployees(count).map((row, index) =>
    index === 0 ? { ...row, lastName: 'Zweigelt', annualSalary: 58234.5, hireDate: '2026-11-27' } : row,
  )
}

/** Narrows the table to the one employee with the salary and hire date looked at. */
async function findZweigelt(): Promise<void> {
  fireEvent.change(screen.getByRole('searchbox', { name: 'Search employees' }), {
    target: { value: 'Zweigelt' },
  })
  await waitFor(() =>
    expect(document.querySelectorAll('[role="gridcell"][data-col="annualSalary"]')).toHaveLength(1),
  )
}

function cell(column: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`[role="gridcell"][data-col="${column}"]`)
  if (found === null) throw new Error(`no ${column} cell`)
  return found
}

describe('regional formats', () => {
  it('follows the computer’s (German): the table, the detail panel, the counts and the printed page', async () => {
    const { core } = renderWithCore({
      serviceEmployees: employees(1200),
      synced: true,
      signedIn: true,
      systemLocale: 'de-DE',
    })
    // Counts with the German thousands separator; the words stay English.
    await screen.findByText('1.200 of 1.200 employees')
    await findZweigelt()
    expect(cell('annualSalary').textContent).toBe('58.234,50')
    expect(cell('hireDate').textContent).toBe('27.11.2026')

    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search employees' }), { key: 'ArrowDown' })
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' })
    const panel = await screen.findByRole('complementary', { name: /Zweigelt/ })
    await waitFor(() =>
      expect(within(panel).getByText('Annual salary').nextElementSibling?.textContent).toBe('58.234,50'),
    )
    expect(within(panel).getByText('Hire date').nextElementSibling?.textContent).toBe('27.11.2026')

    // The printed page is asked for in the same formats the screen shows.
    fireEvent.click(screen.getByRole('button', { name: 'Print…' }))
    await waitFor(() => expect(core.calls.some((call) => call.channel === 'export:print')).toBe(true))
    const print = core.calls.find((call) => call.channel === 'export:print')!
    expect((print.args[0] as ExportRequest).kind).toBe('view')
    expect(print.args[1]).toEqual({ locale: 'de-DE' })
  })

  it('uses the locale chosen in Settings over the computer’s, and System again brings the computer’s back', async () => {
    renderWithCore({ serviceEmployees: employees(1200), synced: true, signedIn: true, systemLocale: 'de-DE' })
    await screen.findByText('1.200 of 1.200 employees')
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    const choice = (await screen.findByLabelText('Numbers and dates')) as HTMLSelectElement
    expect(choice.value).toBe('system')
    expect(choice.selectedOptions[0]?.textContent).toBe('System (German (Germany)) – 58.234,50 · 27.11.2026')
    fireEvent.change(choice, { target: { value: 'en-US' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await screen.findByText('Settings saved.')
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))

    await screen.findByText('1,200 of 1,200 employees')
    await findZweigelt()
    expect(cell('annualSalary').textContent).toBe('58,234.50')
    expect(cell('hireDate').textContent).toBe('11/27/2026')
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search employees' }), { target: { value: '' } })

    fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    fireEvent.change(await screen.findByLabelText('Numbers and dates'), { target: { value: 'system' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await screen.findByText('Settings saved.')
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    await screen.findByText('1.200 of 1.200 employees')
  })

  it('without Electron follows the browser’s own locale (jsdom: en-US)', async () => {
    renderWithCore({ serviceEmployees: employees(1200), synced: true, signedIn: true })
    await screen.findByText('1,200 of 1,200 employees')
    await findZweigelt()
    expect(cell('annualSalary').textContent).toBe('58,234.50')
  })
})
