import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { PreparingWork, QueryResult } from '../../src/shared/domain/query'
import { preparingText } from '../../src/renderer/src/format/preparing-text'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

const salarySort: PreparingWork = { what: 'sort', column: 'annualSalary', label: 'Annual salary' }
const emailSearch: PreparingWork = { what: 'search', column: 'email', label: 'Email' }
const index: PreparingWork = { what: 'index', column: null, label: null }

describe('what the core is preparing, in words', () => {
  it('names the work and the columns by their labels', () => {
    expect(preparingText([])).toBeUndefined()
    expect(preparingText([salarySort])).toBe('preparing the sort on Annual salary…')
    expect(preparingText([emailSearch])).toBe('preparing search in Email…')
    expect(preparingText([index])).toBe('opening the saved employees…')
    expect(
      preparingText([salarySort, emailSearch, { ...salarySort, column: 'hireDate', label: 'Hire date' }]),
    ).toBe('preparing the sort on Annual salary, search in Email and the sort on Hire date…')
    // An older snapshot's build beside the newer one's index: the same column is named once.
    expect(preparingText([salarySort, index, salarySort])).toBe(
      'opening the saved employees… preparing the sort on Annual salary…',
    )
  })

  it('shows it after the count while the rows stay, and drops it when main says nothing is prepared', async () => {
    const { events, core } = renderWithCore({
      serviceEmployees: makeEmployees(50),
      synced: true,
      signedIn: true,
    })
    const count = await screen.findByText(/^50 of 50 employees/)
    expect(count.getAttribute('aria-live')).toBe('polite')
    const rowsBefore = screen.getAllByRole('row').length

    act(() => events.emit('query:preparing', [salarySort]))
    expect(count.textContent).toBe(
      '50 of 50 employees from Demo (sample data) · preparing the sort on Annual salary… the list stays usable meanwhile',
    )

    // A query of this view waiting on it, past UPDATING_SIGN_MS: the old count goes, and the line says why.
    const working = core.handlers['employees:query']
    let answer: () => void = () => undefined
    core.handlers['employees:query'] = (query) =>
      new Promise<QueryResult>((resolve) => (answer = () => void working(query).then(resolve)))
    screen.getByRole('button', { name: /^Annual salary/ }).click()
    await waitFor(() =>
      expect(count.textContent).toBe(
        'Updating… preparing the sort on Annual salary… the list stays usable meanwhile',
      ),
    )
    expect(screen.getAllByRole('row')).toHaveLength(rowsBefore)

    act(() => events.emit('query:preparing', []))
    await waitFor(() => expect(count.textContent).toBe('Updating…'))
    answer()
    await waitFor(() => expect(count.textContent).toBe('50 of 50 employees from Demo (sample data)'))
  })

  it('says the saved employees are being opened before the first rows come', async () => {
    const { events, core } = renderWithCore({
      serviceEmployees: makeEmployees(50),
      synced: true,
      signedIn: true,
    })
    const working = core.handlers['employees:query']
    let answer: () => void = () => undefined
    core.handlers['employees:query'] = (query) =>
      new Promise<QueryResult>((resolve) => (answer = () => void working(query).then(resolve)))
    expect(await screen.findByText('Loading employees…')).toBeTruthy()
    // findByText may see the text before React has run the effects of that render, usePreparing's subscription
    // among them (a loaded machine showed it); act flushes them, so the event below has its listener.
    await act(async () => undefined)
    act(() => events.emit('query:preparing', [index]))
    expect(screen.getByText('Loading employees…').closest('[role="status"]')?.textContent).toBe(
      'Loading employees…Opening the saved employees…',
    )
    act(() => events.emit('query:preparing', []))
    core.handlers['employees:query'] = working
    answer()
    expect(await screen.findByText(/^50 of 50 employees/)).toBeTruthy()
    expect(screen.queryByText('Opening the saved employees…')).toBeNull()
  })
})
