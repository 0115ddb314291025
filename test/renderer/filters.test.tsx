import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { EmployeeQuery } from '../../src/shared/domain/query'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { column, renderWithCore, shownCount, setUpAppTests } from './render-app'

setUpAppTests()

const COUNT = 2_000

async function renderSynced() {
  const rendered = renderWithCore({ serviceEmployees: makeEmployees(COUNT), synced: true, signedIn: true })
  await screen.findByText('2,000 of 2,000 employees')
  return rendered
}

function texts(calls: { channel: string; args: unknown[] }[]): (string | undefined)[] {
  return calls
    .filter((call) => call.channel === 'employees:query')
    .map((call) => (call.args[0] as EmployeeQuery).text)
}

describe('search and filters', () => {
  it('searches at the first keystroke, the newest text once that answers, and narrows the table', async () => {
    const { core } = await renderSynced()
    const search = screen.getByRole('searchbox', { name: 'Search employees' })
    fireEvent.change(search, { target: { value: 's' } })
    fireEvent.change(search, { target: { value: 'sm' } })
    fireEvent.change(search, { target: { value: 'smi' } })
    await waitFor(() => expect(shownCount()).toBeLessThan(COUNT))
    expect(shownCount()).toBeGreaterThan(0)
    expect(column('Last name').every((name) => name.startsWith('Smith'))).toBe(true)
    // No debounce: "s" went at once, and the newest text last (LatestRequest: query-updates.test.tsx).
    const asked = [...new Set(texts(core.calls).filter((text) => text !== undefined))]
    expect(asked[0]).toBe('s')
    expect(asked.at(-1)).toBe('smi')
  })

  it('looks in one chosen column when the clerk picks it, and back in names and IDs after Clear all', async () => {
    const { core } = await renderSynced()
    const where = screen.getByRole('combobox', { name: 'Search in' })
    expect((where as HTMLSelectElement).value).toBe('')
    fireEvent.change(where, { target: { value: 'department' } })
    const search = screen.getByRole('searchbox', { name: 'Search employees' })
    expect(search.getAttribute('placeholder')).toMatch(/^Search by department/)
    fireEvent.change(search, { target: { value: 'fin' } })
    await waitFor(() => expect(shownCount()).toBe(COUNT / 4))
    const last = core.calls.filter((call) => call.channel === 'employees:query').at(-1)
    expect(last?.args[0]).toMatchObject({ text: 'fin', column: 'department' })
    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }))
    await waitFor(() => expect(shownCount()).toBe(COUNT))
    expect((where as HTMLSelectElement).value).toBe('')
  })

  it('focuses the search box on Ctrl+F', async () => {
    await renderSynced()
    fireEvent.keyDown(window, { key: 'f', ctrlKey: true })
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search employees' }))
  })

  it('filters by status and pay cycle with counts, and clears everything at once', async () => {
    await renderSynced()
    const status = screen.getByRole('group', { name: 'Status' })
    const active = within(status).getByRole('checkbox', { name: /Active/ })
    const activeCount = Number(
      active.closest('label')!.querySelector('.facet-count')!.textContent!.replace(/,/g, ''),
    )
    expect(activeCount).toBeGreaterThan(0)
    // The count is part of the checkbox's name, after the visible words, with its unit.
    const shown = active.closest('label')!.querySelector('.facet-count')!.textContent
    expect(within(status).getByRole('checkbox', { name: `Active ${shown} employees` })).toBe(active)
    fireEvent.click(active)
    await waitFor(() => expect(shownCount()).toBe(activeCount))
    expect(new Set(column('Status'))).toEqual(new Set(['Active']))

    const cycles = screen.getByRole('group', { name: 'Pay cycle' })
    const monthly = within(cycles).getByRole('checkbox', { name: /PC-MONTHLY/ })
    const monthlyCount = Number(monthly.closest('label')!.querySelector('.facet-count')!.textContent)
    fireEvent.click(monthly)
    await waitFor(() => expect(shownCount()).toBe(monthlyCount))
    expect(new Set(column('Status'))).toEqual(new Set(['Active']))

    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }))
    await waitFor(() => expect(shownCount()).toBe(COUNT))
    expect((active as HTMLInputElement).checked).toBe(false)
  })

  it('says when nothing matches and offers to clear what it clears: the search, the filters, or both', async () => {
    await renderSynced()
    const box = screen.getByRole('searchbox', { name: 'Search employees' })
    fireEvent.change(box, { target: { value: 'zzzz' } })
    expect(await screen.findByText('No employees match “zzzz”.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }))
    await waitFor(() => expect(shownCount()).toBe(COUNT))
    expect(box).toHaveProperty('value', '')

    const active = within(screen.getByRole('group', { name: 'Status' })).getByRole('checkbox', {
      name: /Active/,
    })
    fireEvent.click(active)
    fireEvent.change(box, { target: { value: 'zzzz' } })
    expect(await screen.findByText('No employees match “zzzz” with the chosen filters.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }))
    await waitFor(() => expect(shownCount()).toBe(COUNT))
    expect(box).toHaveProperty('value', '')
    expect((active as HTMLInputElement).checked).toBe(false)
  })
})
