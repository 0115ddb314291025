import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { ExportRequest } from '../../src/shared/domain/export'
import type { ViewState } from '../../src/shared/view-schema'
import { App } from '../../src/renderer/src/App'
import { createClient } from '../../src/renderer/src/api/client'
import { ClientProvider } from '../../src/renderer/src/api/client-context'
import { VIEW_SAVE_DEBOUNCE_MS } from '../../src/renderer/src/hooks/use-view-state'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { column, expectRosterSummary, renderWithCore, setUpAppTests, shownCount } from './render-app'

setUpAppTests()

const COUNT = 700

async function renderSynced() {
  const rendered = renderWithCore({ serviceEmployees: makeEmployees(COUNT), synced: true, signedIn: true })
  await screen.findByText('700 of 700 employees')
  return rendered
}

function searchBox(): HTMLInputElement {
  return screen.getByRole('searchbox', { name: 'Search employees' })
}

function header(label: string): HTMLElement {
  const found = screen.getAllByRole('columnheader').find((cell) => cell.textContent?.startsWith(label))
  if (found === undefined) throw new Error(`No column "${label}"`)
  return found
}

function statusBox(name: string): HTMLInputElement {
  return within(screen.getByRole('group', { name: 'Status' })).getByRole('checkbox', {
    name: new RegExp(name),
  })
}

/** Sorts by a column as the clerk does: a click on its header. */
function sortBy(label: string): void {
  fireEvent.click(within(header(label)).getAllByRole('button')[0]!)
}

function setCurrentCalls(calls: { channel: string; args: unknown[] }[]): ViewState[] {
  return calls.filter((call) => call.channel === 'views:set-current').map((call) => call.args[1] as ViewState)
}

function openViews(): HTMLElement {
  fireEvent.click(screen.getByRole('button', { name: /^View/ }))
  return screen.getByRole('dialog', { name: 'Saved views' })
}

async function saveView(name: string): Promise<void> {
  const panel = openViews()
  fireEvent.click(within(panel).getByRole('button', { name: 'Save view…' }))
  fireEvent.change(within(panel).getByLabelText('Name this view'), { target: { value: name } })
  fireEvent.click(within(panel).getByRole('button', { name: 'Save' }))
  await waitFor(() => expect(within(panel).getByRole('button', { name })).toBeTruthy())
}

describe('the view on screen', () => {
  it('is kept once changes settle and restored when the app starts again', async () => {
    const { core, api } = await renderSynced()
    fireEvent.change(searchBox(), { target: { value: 's' } })
    fireEvent.change(searchBox(), { target: { value: 'smi' } })
    fireEvent.click(statusBox('Active'))
    sortBy('First name')
    await waitFor(() => expect(header('First name').getAttribute('aria-sort')).toBe('ascending'))
    await waitFor(() =>
      expect(setCurrentCalls(core.calls).at(-1)).toMatchObject({
        text: 'smi',
        statuses: ['Active'],
        sort: { column: 'firstName', order: 'asc' },
      }),
    )
    // Typing is debounced: the keystrokes before "smi" were never written.
    expect(setCurrentCalls(core.calls).some((state) => state.text === 's')).toBe(false)

    // A restart: the window's app is gone, main (the fake core) keeps what it was sent.
    cleanup()
    render(
      <ClientProvider client={createClient(api)}>
        <App />
      </ClientProvider>,
    )
    await waitFor(() => expect(searchBox().value).toBe('smi'))
    await waitFor(() => expect(statusBox('Active').checked).toBe(true))
    expect(header('First name').getAttribute('aria-sort')).toBe('ascending')
    await waitFor(() => {
      const names = column('Last name')
      expect(names.length).toBeGreaterThan(0)
      expect(names.every((name) => name.startsWith('Smith'))).toBe(true)
    })
    expect(new Set(column('Status'))).toEqual(new Set(['Active']))
  })

  it('“Clear all” clears the sort too', async () => {
    await renderSynced()
    sortBy('Last name')
    await waitFor(() => expect(header('Last name').getAttribute('aria-sort')).toBe('ascending'))
    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }))
    await waitFor(() => expect(header('Last name').getAttribute('aria-sort')).toBe('none'))
  })

  it('is sent once per settled change, not per render', async () => {
    const { core } = await renderSynced()
    await waitFor(() => expect(setCurrentCalls(core.calls)).toHaveLength(1))
    // The debounce window run out on a fake clock, re-renders included: a save per render would show as a second call.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Columns' }))
        await vi.advanceTimersByTimeAsync(VIEW_SAVE_DEBOUNCE_MS * 2)
      })
      expect(setCurrentCalls(core.calls)).toHaveLength(1)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('views per profile', () => {
  it('restores each profile’s own view when the clerk switches between them', async () => {
    const { core } = renderWithCore({
      serviceEmployees: makeEmployees(COUNT),
      synced: true,
      signedIn: true,
      otherProfiles: [{ name: 'Acme Ltd', employees: makeEmployees(40) }],
    })
    await screen.findByText('700 of 700 employees')
    fireEvent.change(searchBox(), { target: { value: 'smi' } })
    await waitFor(() => expect(setCurrentCalls(core.calls).at(-1)?.text).toBe('smi'))

    await act(() => core.handlers['profiles:switch']('p2'))
    await screen.findByText('40 of 40 employees')
    expect(searchBox().value).toBe('')
    fireEvent.click(statusBox('Pending'))
    await waitFor(() => expect(setCurrentCalls(core.calls).at(-1)?.statuses).toEqual(['Pending']))
    // Each save named the profile it was made in.
    expect(
      core.calls.filter((call) => call.channel === 'views:set-current').map((call) => call.args[0]),
    ).toEqual(expect.arrayContaining(['p1', 'p2']))

    await act(() => core.handlers['profiles:switch']('p1'))
    await waitFor(() => expect(searchBox().value).toBe('smi'))
    expect(statusBox('Pending').checked).toBe(false)
  })
})

describe('saved views', () => {
  it('saves the view under a name, names it in the toolbar, and applies it again', async () => {
    await renderSynced()
    fireEvent.click(statusBox('On leave'))
    sortBy('Last name')
    sortBy('Last name')
    await waitFor(() => expect(header('Last name').getAttribute('aria-sort')).toBe('descending'))
    await saveView('On leave, Z–A')
    expect(screen.getByRole('button', { name: 'View: On leave, Z–A' })).toBeTruthy()

    // Changing the screen marks the view changed; applying it puts it back.
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Saved views' }), { key: 'Escape' })
    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }))
    fireEvent.change(searchBox(), { target: { value: 'zz' } })
    await waitFor(() => screen.getByRole('button', { name: 'View: On leave, Z–A (changed)' }))
    const panel = openViews()
    fireEvent.click(within(panel).getByRole('button', { name: 'On leave, Z–A' }))
    expect(screen.queryByRole('dialog', { name: 'Saved views' })).toBeNull()
    await waitFor(() => expect(shownCount()).toBe(COUNT / 7))
    expect(searchBox().value).toBe('')
    expect(statusBox('On leave').checked).toBe(true)
    expect(header('Last name').getAttribute('aria-sort')).toBe('descending')
    expect(screen.getByRole('button', { name: 'View: On leave, Z–A' })).toBeTruthy()
  })

  it('asks before replacing a view of the same name, renames, and deletes after a confirmation', async () => {
    const { core } = await renderSynced()
    await saveView('Everyone')
    fireEvent.click(statusBox('Pending'))
    const panel = screen.getByRole('dialog', { name: 'Saved views' })
    fireEvent.click(within(panel).getByRole('button', { name: 'Save view…' }))
    const name = within(panel).getByLabelText('Name this view')
    // It offers the name of the view on screen.
    expect((name as HTMLInputElement).value).toBe('Everyone')
    fireEvent.change(name, { target: { value: 'everyone' } })
    fireEvent.click(within(panel).getByRole('button', { name: 'Save' }))
    expect(within(panel).getByRole('alert').textContent).toBe(
      'A view named "Everyone" exists. Replace it with what is on screen?',
    )
    fireEvent.click(within(panel).getByRole('button', { name: 'Replace' }))
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'everyone' })).toBeTruthy())
    const saves = core.calls.filter((call) => call.channel === 'views:save')
    expect(saves.map((call) => [call.args[0], (call.args[1] as ViewState).statuses, call.args[2]])).toEqual([
      ['Everyone', [], false],
      ['everyone', ['Pending'], true],
    ])

    fireEvent.click(within(panel).getByRole('button', { name: 'Rename everyone' }))
    fireEvent.change(within(panel).getByLabelText('New name for everyone'), {
      target: { value: 'Pending only' },
    })
    fireEvent.click(within(panel).getByRole('button', { name: 'Rename' }))
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Pending only' })).toBeTruthy())
    expect(screen.getByRole('button', { name: 'View: Pending only' })).toBeTruthy()

    fireEvent.click(within(panel).getByRole('button', { name: 'Delete Pending only' }))
    const confirm = within(panel).getByRole('group', { name: 'Delete Pending only?' })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep' }))
    expect(within(panel).getByRole('button', { name: 'Pending only' })).toBeTruthy()
    fireEvent.click(within(panel).getByRole('button', { name: 'Delete Pending only' }))
    fireEvent.click(within(panel).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(within(panel).getByText(/No saved views yet/)).toBeTruthy())
    expect(screen.getByRole('button', { name: 'Views' })).toBeTruthy()
  })

  it('refuses a blank name with the shared rule’s words', async () => {
    const { core } = await renderSynced()
    const panel = openViews()
    fireEvent.click(within(panel).getByRole('button', { name: 'Save view…' }))
    fireEvent.click(within(panel).getByRole('button', { name: 'Save' }))
    expect(within(panel).getByRole('alert').textContent).toBe('Enter a name for the view.')
    expect(core.calls.some((call) => call.channel === 'views:save')).toBe(false)
  })

  it('is a roster template: its statuses, columns and order, with the pay cycle chosen in the dialog', async () => {
    const { core } = await renderSynced()
    fireEvent.click(statusBox('Suspended'))
    sortBy('First name')
    await waitFor(() => expect(header('First name').getAttribute('aria-sort')).toBe('ascending'))
    await saveView('Suspended by first name')
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Saved views' }), { key: 'Escape' })
    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }))
    await waitFor(() => expect(shownCount()).toBe(COUNT))

    fireEvent.click(screen.getByRole('button', { name: 'Export roster…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Export a pay-cycle roster' })
    fireEvent.change(await within(dialog).findByLabelText('Pay cycle'), { target: { value: 'PC-MONTHLY' } })
    const template = await within(dialog).findByLabelText('Template')
    const option = within(template).getByRole('option', { name: 'View: Suspended by first name' })
    fireEvent.change(template, { target: { value: (option as HTMLOptionElement).value } })
    expect(
      within(dialog).getByText(/From the view “Suspended by first name”: \d+ columns, sorted by First name/),
    ).toBeTruthy()
    await expectRosterSummary(
      dialog,
      'The roster will hold 25 employees: pay cycle PC-MONTHLY, status Suspended.',
    )
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export 25 rows…' }))
    await screen.findByText(/Exported 25 rows to/)
    const requests = core.calls
      .filter((call) => call.channel === 'export:start')
      .map((call) => call.args[0] as ExportRequest)
    const saved = core.calls.find((call) => call.channel === 'views:save')?.args[1] as ViewState
    expect(requests).toEqual([
      {
        kind: 'roster',
        payCycleId: 'PC-MONTHLY',
        statuses: ['Suspended'],
        sort: { column: 'firstName', order: 'asc' },
        columns: saved.columns?.keys,
        format: 'xlsx',
      },
    ])
  })
})
