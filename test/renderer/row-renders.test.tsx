import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { EmployeeQuery, QueryResult } from '../../src/shared/domain/query'
import type * as FormatValue from '../../src/renderer/src/format/format-value'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { bodyRows, renderWithCore, setUpAppTests, shownCount } from './render-app'

/**
 * A keystroke costs the clerk only the work its answer needs (issue 33, point 15): the rows on screen are not
 * rendered again until an answer changes them, and nothing reads the grid's layout while React renders. Cells
 * are counted through formatValue, which every body cell calls once per render (no detail panel is open here).
 */

const formatted = vi.hoisted(() => ({ calls: 0 }))
vi.mock('../../src/renderer/src/format/format-value', async (importOriginal) => {
  const actual = await importOriginal<typeof FormatValue>()
  return {
    ...actual,
    formatValue: (...args: Parameters<typeof actual.formatValue>) => {
      formatted.calls++
      return actual.formatValue(...args)
    },
  }
})

setUpAppTests()

describe('rows rendered per keystroke', () => {
  it('renders no row for a keystroke or the "Updating…" sign, and every changed row for the answer', async () => {
    const rendered = renderWithCore({ serviceEmployees: makeEmployees(2_000), synced: true, signedIn: true })
    await screen.findByText('2,000 of 2,000 employees')
    const working = rendered.core.handlers['employees:query']
    const held: Array<() => void> = []
    rendered.core.handlers['employees:query'] = (query: EmployeeQuery) =>
      new Promise<QueryResult>((resolve, reject) =>
        held.push(() => void working(query).then(resolve, reject)),
      )
    const rows = bodyRows().length
    const cells = rows * screen.getAllByRole('columnheader').length
    expect(rows).toBeGreaterThan(10)

    // Reads of the grid's layout: each forces Chromium to lay the page out there and then, mid-render.
    const grid = screen.getByRole('grid')
    const layoutReads: string[] = []
    for (const name of ['clientHeight', 'scrollHeight', 'offsetHeight'] as const) {
      const inherited =
        Object.getOwnPropertyDescriptor(HTMLElement.prototype, name) ??
        Object.getOwnPropertyDescriptor(Element.prototype, name)
      Object.defineProperty(grid, name, {
        configurable: true,
        get() {
          layoutReads.push(name)
          return inherited?.get?.call(grid) as number
        },
      })
    }

    formatted.calls = 0
    const box = screen.getByRole('searchbox', { name: 'Search employees' })
    fireEvent.change(box, { target: { value: 'S' } })
    await waitFor(() => expect(held).toHaveLength(1))
    // The box shows the key at once; the rows, the previous answer's, are not rendered again.
    expect(box).toHaveProperty('value', 'S')
    expect(formatted.calls).toBe(0)
    // Nor when the answer is slow and the list says it is updating (the muting is the stylesheet's).
    await waitFor(() => expect(screen.getByText('Updating…')).toBeTruthy())
    expect(formatted.calls).toBe(0)

    for (const release of held) release()
    const answer = await working({ text: 'S', offset: 0, limit: 1 })
    expect(answer.total).toBeLessThan(2_000)
    await waitFor(() => expect(shownCount()).toBe(answer.total))
    await act(async () => undefined)
    // The answer's rows are rendered, each once: about a cell per row and column shown, not several times over.
    await waitFor(() => expect(formatted.calls).toBeGreaterThan(0))
    expect(formatted.calls).toBeLessThanOrEqual(cells)
    expect(bodyRows()[0]?.textContent).toContain(String(answer.rows[0]?.['lastName']))
    // Neither the keystroke's render nor the answer's read the grid's layout (the list was already at its top).
    expect(layoutReads).toEqual([])
  })
})
