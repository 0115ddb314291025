import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { EmployeeQuery, QueryResult } from '../../src/shared/domain'
import { LatestRequest, type RequestOutcome } from '../../src/renderer/src/data/latest-request'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests, shownCount, type Rendered } from './render-app'

/**
 * Every keystroke and filter change asks at once (no debounce), at most one query in flight plus the newest
 * waiting; an answer to a query the clerk has replaced is never painted; and a slow answer shows "Updating…"
 * rather than the previous count as if current. Answers are held and released by the test, never timed.
 */

setUpAppTests()

const COUNT = 2_000

/** A promise the test settles. */
function deferred<T>(): {
  promise: Promise<T>
  resolve: (value: T) => void
  reject: (error: unknown) => void
} {
  let resolve: (value: T) => void = () => undefined
  let reject: (error: unknown) => void = () => undefined
  const promise = new Promise<T>((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

describe('LatestRequest', () => {
  it('keeps one request in flight and only the newest waiting, and settles only the newest', async () => {
    const requests = new LatestRequest<string>()
    const sent: string[] = []
    const answers = new Map<string, ReturnType<typeof deferred<string>>>()
    const settled: Array<RequestOutcome<string>> = []
    const ask = (name: string): void =>
      requests.run(
        () => {
          sent.push(name)
          const answer = deferred<string>()
          answers.set(name, answer)
          return answer.promise
        },
        (outcome) => settled.push(outcome),
      )
    ask('a')
    ask('b')
    ask('c')
    // "b" was replaced while it waited: it is never sent.
    expect(sent).toEqual(['a'])
    answers.get('a')?.resolve('answer a')
    await waitFor(() => expect(sent).toEqual(['a', 'c']))
    // "a" answered after "c" was asked: dropped.
    expect(settled).toEqual([])
    answers.get('c')?.resolve('answer c')
    await waitFor(() => expect(settled).toEqual([{ ok: true, value: 'answer c' }]))

    // A failure of the newest is settled too; after cancel nothing is, and nothing waiting is sent.
    ask('d')
    answers.get('d')?.reject(new Error('broken'))
    await waitFor(() => expect(settled).toHaveLength(2))
    expect(settled[1]).toMatchObject({ ok: false })
    ask('e')
    ask('f')
    requests.cancel()
    answers.get('e')?.resolve('answer e')
    await act(async () => answers.get('e')?.promise)
    expect(sent).toEqual(['a', 'c', 'd', 'e'])
    expect(settled).toHaveLength(2)
  })
})

/** The app with every `employees:query` held until the test releases it, in the order the test chooses. */
async function renderHeld(): Promise<{
  rendered: Rendered
  held: Array<{ query: EmployeeQuery; release: () => void }>
  countOf: (query: EmployeeQuery) => Promise<number>
}> {
  const rendered = renderWithCore({ serviceEmployees: makeEmployees(COUNT), synced: true, signedIn: true })
  await screen.findByText('2,000 of 2,000 employees')
  const working = rendered.core.handlers['employees:query']
  const held: Array<{ query: EmployeeQuery; release: () => void }> = []
  rendered.core.handlers['employees:query'] = (query) => {
    const answer = deferred<QueryResult>()
    held.push({ query, release: () => void working(query).then(answer.resolve, answer.reject) })
    return answer.promise
  }
  const countOf = async (query: EmployeeQuery): Promise<number> =>
    (await working({ ...query, limit: 0 })).total
  return { rendered, held, countOf }
}

describe('search and filter answers on screen', () => {
  it('asks at each keystroke, coalesces while one is in flight, and never paints a replaced answer', async () => {
    const { held, countOf } = await renderHeld()
    const box = screen.getByRole('searchbox', { name: 'Search employees' })
    fireEvent.change(box, { target: { value: 'S' } })
    // No debounce: the first keystroke's query is sent at once.
    await waitFor(() => expect(held.map((entry) => entry.query.text)).toEqual(['S']))
    for (const text of ['Sm', 'Smi', 'Smithe']) fireEvent.change(box, { target: { value: text } })
    await act(async () => undefined)
    expect(held).toHaveLength(1)

    // "S" answers after "Smithe" was typed: the newest is sent, and "S"'s count is never shown.
    const countS = await countOf({ text: 'S' })
    const countSmithe = await countOf({ text: 'Smithe' })
    expect(countS).not.toBe(countSmithe)
    held[0]?.release()
    await waitFor(() => expect(held.map((entry) => entry.query.text)).toEqual(['S', 'Smithe']))
    const line = screen.getByText(/employees|Updating/, { selector: '.result-count' })
    expect(line.textContent).not.toMatch(new RegExp(`^${countS.toLocaleString('en')} of`))
    expect(line.getAttribute('aria-busy')).toBe('true')

    held[1]?.release()
    await waitFor(() => expect(shownCount()).toBe(countSmithe))
    expect(line.getAttribute('aria-busy')).toBe('false')
  })

  it('says the rows and counts are updating when an answer is slow, and shows the new count once it comes', async () => {
    const { held, countOf } = await renderHeld()
    const rowsBefore = screen.getAllByRole('row').length
    const status = screen.getByRole('group', { name: 'Status' })
    fireEvent.click(within(status).getByRole('checkbox', { name: /^Suspended/ }))
    await waitFor(() => expect(held).toHaveLength(1))
    const line = screen.getByText(/employees|Updating/, { selector: '.result-count' })
    // Past UPDATING_SIGN_MS the old count goes: the line says "Updating…" and the list and filters are busy.
    await waitFor(() => expect(line.textContent).toBe('Updating…'))
    expect(line.getAttribute('aria-busy')).toBe('true')
    expect(screen.getByRole('region', { name: 'Employee list' }).getAttribute('aria-busy')).toBe('true')
    const filters = screen.getByRole('complementary', { name: 'Filters' })
    expect(filters.getAttribute('aria-busy')).toBe('true')
    expect(filters.classList.contains('updating')).toBe(true)
    // The previous rows stay (dimmed), so the clerk keeps their place.
    expect(screen.getAllByRole('row')).toHaveLength(rowsBefore)

    held[0]?.release()
    const suspended = await countOf({ statuses: ['Suspended'] })
    await waitFor(() => expect(line.textContent).toBe(`${suspended.toLocaleString('en')} of 2,000 employees`))
    expect(line.getAttribute('aria-busy')).toBe('false')
    expect(filters.getAttribute('aria-busy')).toBe('false')
    expect(screen.getByRole('region', { name: 'Employee list' }).getAttribute('aria-busy')).toBe('false')
  })
})
