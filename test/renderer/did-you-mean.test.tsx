import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeEmployees } from '../helpers/fake/fake-employees'
import type { FakeCore } from '../helpers/fake/fake-core'
import { column, renderWithCore, setUpAppTests, shownCount } from './render-app'

/**
 * "Did you mean …" in the browse view: a search that finds very little offers the closest saved names, as a list
 * of named buttons in the tab order; one click searches for one. The fake core answers `employees:suggest` with
 * the core's own near-miss rules (core/query/near-miss.ts) over its rows.
 */

setUpAppTests()

const SAVED = makeEmployees(200)
const count = (lastName: string): number => SAVED.filter((row) => row.lastName === lastName).length

async function renderBrowse(): Promise<FakeCore> {
  const { core } = renderWithCore({ serviceEmployees: SAVED, synced: true, signedIn: true })
  await screen.findByText('200 of 200 employees')
  return core
}

const searchBox = (): HTMLElement => screen.getByRole('searchbox', { name: 'Search employees' })
const suggestionList = (): HTMLElement => screen.getByRole('list', { name: 'Did you mean' })

describe('did you mean', () => {
  it('offers the closest saved names for a misspelt one, each a named button; one click finds them', async () => {
    const core = await renderBrowse()
    fireEvent.change(searchBox(), { target: { value: 'Smtih' } })
    await screen.findByRole('list', { name: 'Did you mean' })
    const buttons = within(suggestionList()).getAllByRole('button')
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
      `Smith, ${count('Smith')} employees`,
    ])
    expect(within(suggestionList()).getAllByRole('listitem')).toHaveLength(1)
    // Native buttons, enabled: in the tab order, and Enter or Space presses them.
    expect(buttons.every((button) => button.tabIndex === 0 && !(button as HTMLButtonElement).disabled)).toBe(
      true,
    )
    expect(shownCount()).toBe(0)
    // The suggestion is the first and main choice; looking up on the service is the quieter one after it.
    const lookUp = await screen.findByRole('button', { name: 'Look up on the service' })
    expect(buttons[0]!.classList.contains('primary')).toBe(true)
    expect(lookUp.classList.contains('primary')).toBe(false)
    expect(buttons[0]!.compareDocumentPosition(lookUp) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()

    fireEvent.click(buttons[0]!)
    await waitFor(() => expect(shownCount()).toBe(count('Smith') + count('Smithers')))
    expect(new Set(column('Last name'))).toEqual(new Set(['Smith', 'Smithers']))
    expect((searchBox() as HTMLInputElement).value).toBe('Smith')
    expect(document.activeElement).toBe(searchBox())
    expect(screen.queryByRole('list', { name: 'Did you mean' })).toBeNull()
    expect(core.calls.filter((call) => call.channel === 'employees:suggest')).toEqual([
      { channel: 'employees:suggest', args: [{ text: 'Smtih' }] },
    ])
  })

  it('keeps the rest of the search and spells the name as saved, accents and all', async () => {
    await renderBrowse()
    fireEvent.change(searchBox(), { target: { value: 'Ava Mueler' } })
    const list = await screen.findByRole('list', { name: 'Did you mean' })
    const first = within(list).getAllByRole('button')[0]!
    expect(first.textContent).toMatch(/^Ava Müller/)
    fireEvent.click(first)
    await waitFor(() => expect(shownCount()).toBeGreaterThan(0))
    expect(new Set(column('Last name'))).toEqual(new Set(['Müller']))
    expect(new Set(column('First name'))).toEqual(new Set(['Ava']))
  })

  it('is not asked while a search finds people, and offers nothing for a number', async () => {
    const core = await renderBrowse()
    fireEvent.change(searchBox(), { target: { value: 'Smith' } })
    await waitFor(() => expect(shownCount()).toBeGreaterThan(2))
    fireEvent.change(searchBox(), { target: { value: '999999' } })
    expect(await screen.findByText('No employees match “999999”.')).toBeTruthy()
    await waitFor(() => expect(core.calls.some((call) => call.channel === 'employees:suggest')).toBe(true))
    expect(core.calls.filter((call) => call.channel === 'employees:suggest')).toEqual([
      { channel: 'employees:suggest', args: [{ text: '999999' }] },
    ])
    expect(screen.queryByRole('list', { name: 'Did you mean' })).toBeNull()
  })
})
