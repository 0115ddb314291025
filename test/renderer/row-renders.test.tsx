import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { QueryResult } from '../../src/shared/domain/query'
import type { EmployeeRow } from '../../src/shared/domain/rows'
import type { RosterDeskApi } from '../../src/shared/ipc-contract'
import { App } from '../../src/renderer/src/App'
import { createClient } from '../../src/renderer/src/api/client'
import { ClientProvider } from '../../src/renderer/src/api/client-context'
import { createFakeApi, createFakeEvents } from '../helpers/fake/fake-api'
import { createFakeCore } from '../helpers/fake/fake-core'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { bodyRows, setUpAppTests, shownCount } from './render-app'

/**
 * A keystroke costs the clerk only the work its answer needs (issue 33, point 15): the rows on screen are not
 * rendered again until an answer changes them, each is rendered once for that answer, and nothing reads the
 * grid's layout while React renders. A row's render reads its fields, so the rows each answer brings are counted
 * as they are read (a Proxy put on them as they arrive in the window, after the bridge's JSON round trip).
 */

setUpAppTests()

/** The whole app over the fake core, every row of every `employees:query` answer counting its field reads. */
function renderCounted() {
  const events = createFakeEvents()
  const core = createFakeCore(events, {
    serviceEmployees: makeEmployees(2_000),
    synced: true,
    signedIn: true,
  })
  const api = createFakeApi(core.handlers, events)
  const reads = new Map<string, number>()
  const count = (row: EmployeeRow): EmployeeRow =>
    new Proxy(row, {
      get(target, key, receiver) {
        if (typeof key === 'string') reads.set(key, (reads.get(key) ?? 0) + 1)
        return Reflect.get(target, key, receiver) as unknown
      },
    })
  const counted: RosterDeskApi = {
    ...api,
    invoke: (async (channel: string, ...args: unknown[]) => {
      const result = await (api.invoke as (channel: string, ...args: unknown[]) => Promise<unknown>)(
        channel,
        ...args,
      )
      const answer = result as { ok: boolean; value?: QueryResult }
      if (channel === 'employees:query' && answer.ok && answer.value !== undefined) {
        answer.value = { ...answer.value, rows: answer.value.rows.map(count) }
      }
      return result
    }) as RosterDeskApi['invoke'],
  }
  render(
    <ClientProvider client={createClient(counted)}>
      <App />
    </ClientProvider>,
  )
  return { core, reads }
}

describe('rows rendered per keystroke', () => {
  it('renders no row for a keystroke or the "Updating…" sign, and each row of the answer once', async () => {
    const { core, reads } = renderCounted()
    await screen.findByText('2,000 of 2,000 employees')
    const working = core.handlers['employees:query']
    const total = async (text: string): Promise<number> =>
      (await working({ text, offset: 0, limit: 0 })).total
    const box = screen.getByRole('searchbox', { name: 'Search employees' })
    fireEvent.change(box, { target: { value: 'S' } })
    const countS = await total('S')
    await waitFor(() => expect(shownCount()).toBe(countS))

    // From here each answer waits until the test releases it.
    const held: Array<() => void> = []
    core.handlers['employees:query'] = (query: Parameters<typeof working>[0]) =>
      new Promise<QueryResult>((resolve, reject) =>
        held.push(() => void working(query).then(resolve, reject)),
      )
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
    reads.clear()

    fireEvent.change(box, { target: { value: 'Sm' } })
    await waitFor(() => expect(held).toHaveLength(1))
    // The box shows the key at once; the rows on screen, the previous answer's, are not rendered again.
    expect(box).toHaveProperty('value', 'Sm')
    expect([...reads.keys()]).toEqual([])
    // Nor when the answer is slow and the list says it is updating (the muting is the stylesheet's).
    await waitFor(() => expect(screen.getByText('Updating…')).toBeTruthy())
    expect([...reads.keys()]).toEqual([])

    for (const release of held) release()
    const countSm = await total('Sm')
    expect(countSm).toBeLessThan(countS)
    await waitFor(() => expect(shownCount()).toBe(countSm))
    // Each row of the answer on screen is rendered once: its last name read once, not once per render pass.
    const rows = bodyRows().length
    expect(rows).toBeGreaterThan(0)
    expect(reads.get('lastName')).toBe(rows)
    // Neither the keystroke's render nor the answer's read the grid's layout (the list was already at its top).
    expect(layoutReads).toEqual([])
  })
})
