import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { column, renderWithCore, shownCount, setUpAppTests } from './render-app'

/**
 * The default search box: what it says it finds, and that it finds it. The fake core applies the real search
 * rules (core/query/search-rules.ts), so these tests pass only on behaviour the app has.
 */

setUpAppTests()

const COUNT = 2_000

async function renderSynced() {
  renderWithCore({ serviceEmployees: makeEmployees(COUNT), synced: true, signedIn: true })
  await screen.findByText('2,000 of 2,000 employees')
  return screen.getByRole('searchbox', { name: 'Search employees' })
}

/** Types into the box and waits for the table to answer. */
async function search(box: HTMLElement, text: string, expected: number): Promise<void> {
  fireEvent.change(box, { target: { value: text } })
  await waitFor(() => expect(shownCount()).toBe(expected))
}

describe('the default search box', () => {
  it('says what it finds: names, and the identifier columns whole or from the start', async () => {
    const box = await renderSynced()
    await waitFor(() => expect(box.getAttribute('placeholder')).toBe('Search names and IDs (Ctrl+F)'))
    expect(box.getAttribute('title')).toBe(
      'Finds names in any word order, and employee number, email or UUID whole or from the start, and a pasted part of a UUID',
    )
    const where = screen.getByRole('combobox', { name: 'Search in' })
    expect(within(where).getByRole('option', { name: 'Names and IDs' })).toBeTruthy()
    fireEvent.change(where, { target: { value: 'department' } })
    expect(box.getAttribute('placeholder')).toBe('Search by department (Ctrl+F)')
    expect(box.getAttribute('title')).toBeNull()
  })

  it('finds an employee number with or without its zeros, the whole number first', async () => {
    const box = await renderSynced()
    // 42 itself, then 420…429 by prefix.
    await search(box, '42', 11)
    expect(column('Employee number')[0]).toBe('000042')
    expect(column('Employee number').every((number) => /^0*42/.test(number))).toBe(true)
    await search(box, '000042', 1)
    expect(column('Employee number')).toEqual(['000042'])
    await search(box, '0042', 1)
  })

  it('finds an e-mail address whole or from its start, never from the middle', async () => {
    const box = await renderSynced()
    await search(box, 'employee1234@example.com', 1)
    // Email is not a default column: the one row found is employee 1234, by its number.
    expect(column('Employee number')).toEqual(['001234'])
    await search(box, 'EMPLOYEE123', 11)
    fireEvent.change(box, { target: { value: '1234@example.com' } })
    expect(await screen.findByText('No employees match “1234@example.com”.')).toBeTruthy()
  })

  it('finds transliterated names, and no UUID by a fragment from its middle', async () => {
    const box = await renderSynced()
    fireEvent.change(box, { target: { value: 'Mueller' } })
    await waitFor(() => expect(shownCount()).toBeLessThan(COUNT))
    expect(shownCount()).toBeGreaterThan(0)
    expect(new Set(column('Last name'))).toEqual(new Set(['Müller']))
    await search(box, 'Muller', shownCount())
    fireEvent.change(box, { target: { value: '0000-4000' } })
    expect(await screen.findByText('No employees match “0000-4000”.')).toBeTruthy()
  })
})
