import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { EmployeeQuery, QueryResult } from '../../src/shared/domain/query'
import { LatestRequest, type RequestOutcome } from '../../src/renderer/src/data/latest-request'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { bodyRows, renderWithCore, setUpAppTests, shownCount, type Rendered } from './render-app'

/**
 * Every keystroke and filter change asks at once (no debounce), at most two queries in flight plus the newest
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
  it('keeps two requests in flight and only the newest waiting, and settles only the newest', async () => {
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
    for (const name of ['a', 'b', 'c', 'd']) ask(name)
    // Two lanes; "c" was replaced while it waited, so it is never sent.
    expect(sent).toEqual(['a', 'b'])
    answers.get('b')?.resolve('answer b')
    await waitFor(() => expect(sent).toEqual(['a', 'b', 'd']))
    // "b" answered after "d" was asked: dropped.
    expect(settled).toEqual([])
    answers.get('d')?.resolve('answer d')
    await waitFor(() => expect(settled).toEqual([{ ok: true, value: 'answer d' }]))
    // "a" answers last, out of order: never settled over "d".
    answers.get('a')?.resolve('answer a')
    await act(async () => answers.get('a')?.promise)
    expect(settled).toEqual([{ ok: true, value: 'answer d' }])

    // A failure of the newest is settled too; after cancel nothing is, and nothing waiting is sent.
    ask('e')
    answers.get('e')?.reject(new Error('broken'))
    await waitFor(() => expect(settled).toHaveLength(2))
    expect(settled[1]).toMatchObject({ ok: false })
    for (const name of ['f', 'g', 'h']) ask(name)
    requests.cancel()
    answers.get('f')?.resolve('answer f')
    answers.get('g')?.resolve('answer g')
    await act(async () => Promise.all([answers.get('f')?.promise, answers.get('g')?.promise]))
    expect(sent).toEqual(['a', 'b', 'd', 'e', 'f', 'g'])
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
    (await working({ ...query, offset: 0, limit: 0 })).total
  return { rendered, held, countOf }
}

describe('search and filter answers on screen', () => {
  it('asks at each keystroke, coalesces while two are in flight, and never paints a replaced answer', async () => {
    const { held, countOf } = await renderHeld()
    const box = screen.getByRole('searchbox', { name: 'Search employees' })
    const sent = (): Array<string | undefined> => held.map((entry) => entry.query.text)
    // No debounce: each keystroke's query is sent at once while a lane is free.
    fireEvent.change(box, { target: { value: 'S' } })
    // From the first moment, before any "Updating…": the export button offers no count the query may not have.
    expect(screen.getByRole('button', { name: 'Export rows…' })).toHaveProperty('disabled', true)
    await waitFor(() => expect(sent()).toEqual(['S']))
    fireEvent.change(box, { target: { value: 'Sm' } })
    await waitFor(() => expect(sent()).toEqual(['S', 'Sm']))
    for (const text of ['Smi', 'Smith', 'Smithe']) fireEvent.change(box, { target: { value: text } })
    await act(async () => undefined)
    expect(sent()).toEqual(['S', 'Sm'])

    // "Sm" answers first, after "Smithe" was typed: the newest is sent, and "Sm"'s count is never shown.
    const [countS, countSm, countSmithe] = await Promise.all(
      ['S', 'Sm', 'Smithe'].map((text) => countOf({ text })),
    )
    expect(new Set([countS, countSm, countSmithe]).size).toBe(3)
    const line = screen.getByText(/employees|Updating/, { selector: '.result-count' })
    const notShown = (count: number | undefined): void =>
      expect(line.textContent).not.toMatch(new RegExp(`^${(count ?? -1).toLocaleString('en')} of`))
    held[1]?.release()
    await waitFor(() => expect(sent()).toEqual(['S', 'Sm', 'Smithe']))
    notShown(countSm)
    expect(line.getAttribute('aria-busy')).toBe('true')

    held[2]?.release()
    await waitFor(() => expect(shownCount()).toBe(countSmithe))
    expect(line.getAttribute('aria-busy')).toBe('false')
    // "S", the oldest, answers last: the newer answer stays on screen.
    held[0]?.release()
    await act(async () => undefined)
    await waitFor(() => expect(held).toHaveLength(3))
    expect(shownCount()).toBe(countSmithe)
    notShown(countS)
  })

  it('keeps the count, the look-up offer and the export count through a new order of the same rows (decision 056)', async () => {
    const { held: all, countOf } = await renderHeld()
    // Each query's first window (later windows of the rows on screen are held too, and never released here).
    const held = { at: (i: number) => all.filter((entry) => entry.query.facets === true)[i] }
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search employees' }), { target: { value: 'S' } })
    await waitFor(() => expect(held.at(0)).toBeDefined())
    held.at(0)?.release()
    const count = await countOf({ text: 'S' })
    const exportButton = `Export ${count.toLocaleString('en')} rows…`
    await screen.findByRole('button', { name: exportButton })
    expect(screen.getByRole('button', { name: 'Look up on the service' })).toBeTruthy()

    // A click on a header asks for the same rows in another order: what the count puts above the table stays.
    const header = screen.getByRole('columnheader', { name: /^Last name/ })
    fireEvent.click(within(header).getByRole('button'))
    await waitFor(() => expect(held.at(1)).toBeDefined())
    await waitFor(() =>
      expect(screen.getByText(/employees|Updating/, { selector: '.result-count' }).textContent).toBe(
        'Updating…',
      ),
    )
    expect(header.getAttribute('aria-sort')).toBe('ascending')
    expect(screen.getByRole('button', { name: 'Look up on the service' })).toBeTruthy()
    expect(screen.getByRole('button', { name: exportButton })).toHaveProperty('disabled', false)

    // Other rows (a filter) still take them away until their count comes.
    held.at(1)?.release()
    await waitFor(() => expect(shownCount()).toBe(count))
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Status' })).getByRole('checkbox', { name: /^Suspended/ }),
    )
    await waitFor(() => expect(held.at(2)).toBeDefined())
    expect(screen.queryByRole('button', { name: 'Look up on the service' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Export rows…' })).toHaveProperty('disabled', true)
    held.at(2)?.release()
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
    // The facet counts are the previous answer's too: each reads "…" until the new ones come.
    const facetCounts = (): string[] =>
      [...filters.querySelectorAll('.facet-count')].map((count) => count.textContent ?? '')
    expect(facetCounts().every((count) => count === '… count updating')).toBe(true)
    // The clerk's tick shows at once, before its answer.
    expect(within(status).getByRole<HTMLInputElement>('checkbox', { name: /^Suspended/ }).checked).toBe(true)
    // Nor does the export button offer the previous count.
    expect(screen.getByRole('button', { name: 'Export rows…' })).toHaveProperty('disabled', true)
    // The previous rows stay (muted), so the clerk keeps their place.
    expect(screen.getAllByRole('row')).toHaveLength(rowsBefore)

    held[0]?.release()
    const suspended = await countOf({ statuses: ['Suspended'] })
    await waitFor(() =>
      expect(line.textContent).toBe(
        `${suspended.toLocaleString('en')} of 2,000 employees from Demo (sample data)`,
      ),
    )
    expect(line.getAttribute('aria-busy')).toBe('false')
    expect(filters.getAttribute('aria-busy')).toBe('false')
    expect(facetCounts().every((count) => /^[\d,]+$/.test(count))).toBe(true)
    expect(
      screen.getByRole('button', { name: `Export ${suspended.toLocaleString('en')} rows…` }),
    ).toBeTruthy()
    expect(screen.getByRole('region', { name: 'Employee list' }).getAttribute('aria-busy')).toBe('false')
  })

  it('keeps saying "Updating…" through newer requests until an answer comes, and never offers an old count', async () => {
    const { held, countOf } = await renderHeld()
    const status = screen.getByRole('group', { name: 'Status' })
    fireEvent.click(within(status).getByRole('checkbox', { name: /^Suspended/ }))
    await waitFor(() => expect(held).toHaveLength(1))
    const line = screen.getByText(/employees|Updating/, { selector: '.result-count' })
    await waitFor(() => expect(line.textContent).toBe('Updating…'))

    // A keystroke while that answer is still away asks anew: the 2,000 on screen is now two queries old, and
    // neither the line nor the export button may offer it, not even for a moment.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search employees' }), { target: { value: 'S' } })
    await waitFor(() => expect(held).toHaveLength(2))
    expect(line.textContent).toBe('Updating…')
    expect(line.getAttribute('aria-busy')).toBe('true')
    expect(screen.queryByRole('button', { name: /^Export [\d,]+ rows?…$/ })).toBeNull()
    expect(screen.getByRole('button', { name: 'Export rows…' })).toHaveProperty('disabled', true)

    // The replaced answer comes back: dropped, and the screen still waits for the newest.
    held[0]?.release()
    await act(async () => undefined)
    expect(line.textContent).toBe('Updating…')

    held[1]?.release()
    const newest = await countOf({ statuses: ['Suspended'], text: 'S' })
    await waitFor(() => expect(shownCount()).toBe(newest))
    expect(line.getAttribute('aria-busy')).toBe('false')
    expect(
      screen.getByRole('button', { name: `Export ${newest.toLocaleString('en')} rows…` }),
    ).toHaveProperty('disabled', false)
  })

  it('loads further pages of the rows shown while a newer answer is on its way, and of a query gone back to', async () => {
    const rendered = renderWithCore({ serviceEmployees: makeEmployees(COUNT), synced: true, signedIn: true })
    await screen.findByText('2,000 of 2,000 employees')
    // Only each query's first window (the one with facet counts) is held; the table's later pages are answered.
    const working = rendered.core.handlers['employees:query']
    const held: Array<() => Promise<void>> = []
    rendered.core.handlers['employees:query'] = (query) => {
      if (query.facets !== true) return working(query)
      const answer = deferred<QueryResult>()
      held.push(() => working(query).then(answer.resolve, answer.reject))
      return answer.promise
    }
    const grid = screen.getByRole('grid', { name: 'Employees' })
    const rowHeight = 36
    /** Scrolls the table to `index` and waits for that row's employee to be on screen. */
    const loadsRow = async (index: number): Promise<void> => {
      act(() => {
        grid.scrollTop = index * rowHeight
        fireEvent.scroll(grid)
      })
      await waitFor(() => {
        const row = bodyRows().find(
          (candidate) => candidate.getAttribute('aria-rowindex') === String(index + 2),
        )
        expect(row?.getAttribute('aria-busy')).toBe('false')
      })
    }
    const line = screen.getByText(/employees|Updating/, { selector: '.result-count' })
    const status = screen.getByRole('group', { name: 'Status' })
    const suspended = (): HTMLElement => within(status).getByRole('checkbox', { name: /^Suspended/ })

    // "Updating…": the previous rows stay, and scrolling them past the first page loads the rows there.
    fireEvent.click(suspended())
    await waitFor(() => expect(line.textContent).toBe('Updating…'))
    await loadsRow(1_000)

    // Back to the rows on screen before that answer came: shown as they are, and they still load.
    fireEvent.click(suspended())
    await waitFor(() => expect(shownCount()).toBe(COUNT))
    await loadsRow(1_500)

    // Its own answer, asked again, comes and takes the screen: all 2,000 (the replaced answer never shown), and the
    // new rows load where the clerk is.
    expect(held).toHaveLength(2)
    await act(async () => Promise.all(held.map((release) => release())))
    await loadsRow(1_500)
    expect(shownCount()).toBe(COUNT)
    expect(line.getAttribute('aria-busy')).toBe('false')
  })
})
