import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import type { ColumnLayout, ViewState } from '../../src/shared/view-schema'
import { App } from '../../src/renderer/src/App'
import { createClient } from '../../src/renderer/src/api/client'
import { ClientProvider } from '../../src/renderer/src/api/client-context'
import { createFakeApi, createFakeEvents, type FakeHandlers } from '../helpers/fake/fake-api'
import { createFakeCore, type FakeCore, type FakeCoreOptions } from '../helpers/fake/fake-core'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { bodyRows, renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

const COUNT = 300
const OPTIONS: FakeCoreOptions = { serviceEmployees: makeEmployees(COUNT), synced: true, signedIn: true }
/** Where the first release kept the shown columns (a list of keys), before views and profiles. */
const LEGACY_KEY = 'rosterdesk.visibleColumns'
/** The table's default columns for these employees: who they are, then the pay data, then the rest. */
const DEFAULT_KEYS = [
  'lastName',
  'firstName',
  'employeeStatus',
  'employeeNumber',
  'payCycleId',
  'annualSalary',
  'department',
  'hireDate',
]

/** The keys of the table's columns, read from the first row's cells (headers carry labels, cells their keys). */
const rowKeys = (): string[] =>
  [...bodyRows()[0]!.querySelectorAll('[role="gridcell"]')].map((cell) => cell.getAttribute('data-col') ?? '')

async function keptColumns(core: FakeCore, profileId = 'p1'): Promise<ColumnLayout | undefined> {
  const current = await core.handlers['views:get-current']()
  expect(current.profileId).toBe(profileId)
  return current.state?.columns
}

function layoutsSent(core: FakeCore): (ColumnLayout | undefined)[] {
  return core.calls
    .filter((call) => call.channel === 'views:set-current')
    .map((call) => (call.args[1] as ViewState).columns)
}

/** Resolves the promise it hands out when `open()` is called: a reply main has not sent yet. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined
  const wait = new Promise<void>((resolve) => (open = resolve))
  return { wait, open }
}

/** The app over `core`, with some of its answers held back (`hold`), as a busy main answers late. */
function renderOver(core: FakeCore, hold: Partial<FakeHandlers> = {}): void {
  const events = createFakeEvents()
  const api = createFakeApi({ ...core.handlers, ...hold }, events)
  render(
    <ClientProvider client={createClient(api)}>
      <App />
    </ClientProvider>,
  )
}

async function tableShown(): Promise<void> {
  await screen.findByText(`${COUNT} of ${COUNT} employees`)
  await waitFor(() => expect(bodyRows().length).toBeGreaterThan(0))
}

describe('the column layout, kept in the current view', () => {
  it('is kept by main, not in the window’s storage, and comes back after a restart', async () => {
    const { core, api } = renderWithCore(OPTIONS)
    await tableShown()
    await waitFor(async () => expect((await keptColumns(core))?.keys).toEqual(DEFAULT_KEYS))

    fireEvent.click(screen.getByRole('button', { name: 'Columns' }))
    fireEvent.click(screen.getByRole('checkbox', { name: /^Department/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Move Status left' }))
    const chosen = [
      'lastName',
      'employeeStatus',
      'firstName',
      'employeeNumber',
      'payCycleId',
      'annualSalary',
      'hireDate',
    ]
    expect(rowKeys()).toEqual(chosen)
    await waitFor(async () => expect((await keptColumns(core))?.keys).toEqual(chosen))
    expect(localStorage.length).toBe(0)

    cleanup()
    render(
      <ClientProvider client={createClient(api)}>
        <App />
      </ClientProvider>,
    )
    await tableShown()
    expect(rowKeys()).toEqual(chosen)
  })

  it('keeps what the clerk did before the kept view arrived: its search and filters are not laid over it', async () => {
    const core = createFakeCore(createFakeEvents(), OPTIONS)
    await core.handlers['views:set-current']('p1', { text: 'kept', statuses: ['Active'], payCycleIds: [] })
    const view = gate()
    renderOver(core, {
      'views:get-current': async () => {
        await view.wait
        return core.handlers['views:get-current']()
      },
    })
    const box = await screen.findByRole<HTMLInputElement>('searchbox', { name: 'Search employees' })
    fireEvent.change(box, { target: { value: 'typed' } })
    // The status filters are the query answer's facets: they come after the search box.
    fireEvent.click(await screen.findByRole<HTMLInputElement>('checkbox', { name: /^On leave/ }))
    await act(async () => view.open())
    // The view is in once the table stops waiting for it.
    await waitFor(() => expect(screen.queryByText('Loading employees…')).toBeNull())
    expect(box.value).toBe('typed')
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: /^On leave/ }).checked).toBe(true)
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: /^Active/ }).checked).toBe(false)
  })

  it('shows no table until the kept view arrives, then the kept layout, and never sends another over it', async () => {
    // Timers are the test's: a save the view debounces is sent when the test lets its time pass, not by waiting
    // for it. The clock still runs, so the waits on conditions below go on as usual.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] })
    onTestFinished(() => {
      vi.useRealTimers()
    })
    const core = createFakeCore(createFakeEvents(), OPTIONS)
    const saved: ColumnLayout = { keys: ['email', 'lastName', 'hireDate'], widths: { email: 240 } }
    await core.handlers['views:set-current']('p1', {
      text: '',
      statuses: [],
      payCycleIds: [],
      columns: saved,
    })
    const view = gate()
    const columns = gate()
    renderOver(core, {
      'views:get-current': async () => {
        await view.wait
        return core.handlers['views:get-current']()
      },
      'employees:columns': async () => {
        await columns.wait
        return core.handlers['employees:columns']()
      },
    })
    // The rows are read, but the table waits for the view that says which columns it has.
    // Its status filters, the query answer's facets, show that the answer is in.
    await screen.findByRole('checkbox', { name: /^On leave/ })
    expect(screen.queryByRole('grid', { name: 'Employees' })).toBeNull()
    expect(screen.getByText('Loading employees…')).toBeTruthy()

    // The view arrives before the data's columns: the fallback columns hold only one of the kept keys, and that
    // cut-down layout is shown but not kept.
    await act(async () => view.open())
    await tableShown()
    expect(rowKeys()).toEqual(['lastName'])
    await act(async () => columns.open())
    await waitFor(() => expect(rowKeys()).toEqual(saved.keys))
    // Longer than a view's save is debounced (VIEW_SAVE_DEBOUNCE_MS): anything the table would still send is sent.
    await act(() => vi.advanceTimersByTimeAsync(500))
    expect(
      layoutsSent(core).every((layout) => layout === undefined || layout.keys.join() === saved.keys.join()),
    ).toBe(true)
    expect(await keptColumns(core)).toEqual(saved)
  })
})

describe('the first release’s layout', () => {
  it('is carried once into profile 1’s view, in the known order, and then forgotten', async () => {
    localStorage.setItem(LEGACY_KEY, JSON.stringify(['email', 'employeeStatus', 'lastName', 'department']))
    const { core, api } = renderWithCore(OPTIONS)
    await tableShown()
    const migrated = ['lastName', 'employeeStatus', 'email', 'department']
    await waitFor(() => expect(rowKeys()).toEqual(migrated))
    await waitFor(async () => expect(await keptColumns(core)).toEqual({ keys: migrated, widths: {} }))
    expect(localStorage.getItem(LEGACY_KEY)).toBeNull()

    // From here main's view is the layout's one store: a change and a restart read only it.
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }))
    fireEvent.click(screen.getByRole('button', { name: 'Move Email left' }))
    const moved = ['lastName', 'email', 'employeeStatus', 'department']
    await waitFor(async () => expect((await keptColumns(core))?.keys).toEqual(moved))
    cleanup()
    render(
      <ClientProvider client={createClient(api)}>
        <App />
      </ClientProvider>,
    )
    await tableShown()
    expect(rowKeys()).toEqual(moved)
  })

  it('gives way to a layout main already keeps, and is forgotten', async () => {
    localStorage.setItem(LEGACY_KEY, JSON.stringify(['email', 'lastName']))
    const core = createFakeCore(createFakeEvents(), OPTIONS)
    const kept: ColumnLayout = { keys: ['firstName', 'hireDate'], widths: {} }
    await core.handlers['views:set-current']('p1', { text: '', statuses: [], payCycleIds: [], columns: kept })
    renderOver(core)
    await tableShown()
    await waitFor(() => expect(rowKeys()).toEqual(kept.keys))
    expect(localStorage.getItem(LEGACY_KEY)).toBeNull()
    expect(await keptColumns(core)).toEqual(kept)
  })

  it('belongs to profile 1 only', async () => {
    localStorage.setItem(LEGACY_KEY, JSON.stringify(['email', 'lastName']))
    const core = createFakeCore(createFakeEvents(), {
      ...OPTIONS,
      otherProfiles: [{ name: 'Acme Ltd', employees: makeEmployees(COUNT) }],
    })
    await core.handlers['profiles:switch']('p2')
    renderOver(core)
    await tableShown()
    await waitFor(async () => expect((await keptColumns(core, 'p2'))?.keys).toEqual(DEFAULT_KEYS))
    expect(rowKeys()).toEqual(DEFAULT_KEYS)
    expect(localStorage.getItem(LEGACY_KEY)).not.toBeNull()
  })
})
