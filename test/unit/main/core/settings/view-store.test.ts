import { describe, expect, it } from 'vitest'
import { MAX_COLUMNS } from '../../../../../src/shared/column-names'
import { createViewHandlers } from '../../../../../src/main/core/app/view-handlers'
import { dispatchInvoke, type InvokeHandlers } from '../../../../../src/main/core/ipc/dispatch'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../../src/main/core/settings/settings-store'
import { VIEWS_STORAGE_KEY, ViewStore } from '../../../../../src/main/core/settings/view-store'
import {
  EMPTY_VIEW_STATE,
  VIEW_LIMITS,
  readSavedViews,
  sameViewState,
  viewStateSchema,
  type ViewState,
} from '../../../../../src/shared/view-schema'

const LEAVERS: ViewState = {
  text: 'mül',
  searchColumn: 'lastName',
  statuses: ['3'],
  payCycleIds: ['PC-2026-11-A'],
  sort: { column: 'hireDate', order: 'desc' },
  columns: { keys: ['lastName', 'firstName', 'hireDate'], widths: { lastName: 180 } },
}
const SAVED_AT = new Date('2026-11-25T09:12:00Z')

describe('the view schema', () => {
  it('accepts a whole view and an empty one', () => {
    expect(viewStateSchema.safeParse(LEAVERS).success).toBe(true)
    expect(viewStateSchema.safeParse(EMPTY_VIEW_STATE).success).toBe(true)
  })

  it('takes any column name, as the service names its fields (decision 054), and as many columns as Excel', () => {
    const names = ['a"; drop', 'Cost Center', '=HYPERLINK("x")', '__proto__', 'constructor', 'NUL\u0000', '']
    const state: ViewState = {
      ...LEAVERS,
      searchColumn: 'Job Title/Grade',
      sort: { column: 'a"; drop', order: 'asc' },
      columns: { keys: names, widths: { 'Cost Center': 120, constructor: 90 } },
    }
    expect(viewStateSchema.parse(state)).toEqual(state)
    const wide = Array.from({ length: MAX_COLUMNS }, (_, i) => `f${i}`)
    expect(viewStateSchema.safeParse({ ...LEAVERS, columns: { keys: wide, widths: {} } }).success).toBe(true)
  })

  it.each([
    ['text longer than a query takes', { text: 'x'.repeat(VIEW_LIMITS.text + 1) }],
    ['more statuses than a query takes', { statuses: Array.from({ length: 51 }, (_, i) => String(i)) }],
    ['a column name longer than a cell holds', { sort: { column: 'x'.repeat(32_768), order: 'asc' } }],
    [
      'a layout of more columns than an export holds',
      { columns: { keys: Array.from({ length: MAX_COLUMNS + 1 }, (_, i) => `f${i}`), widths: {} } },
    ],
    ['an order other than asc/desc', { sort: { column: 'lastName', order: 'up' } }],
    ['a layout with no column', { columns: { keys: [], widths: {} } }],
    ['a width narrower than readable', { columns: { keys: ['lastName'], widths: { lastName: 3 } } }],
    ['a width wider than any screen', { columns: { keys: ['lastName'], widths: { lastName: 90_000 } } }],
    ['a fractional width', { columns: { keys: ['lastName'], widths: { lastName: 100.5 } } }],
    ['a field it does not know', { secret: 'x' }],
  ])('refuses %s', (_, patch) => {
    expect(viewStateSchema.safeParse({ ...LEAVERS, ...patch }).success).toBe(false)
  })

  it('calls two states the same view when they show the same table', () => {
    expect(sameViewState(LEAVERS, { ...LEAVERS, text: ' mül ', statuses: ['3'] })).toBe(true)
    expect(
      sameViewState(
        { ...EMPTY_VIEW_STATE, statuses: ['1', '3'] },
        { ...EMPTY_VIEW_STATE, statuses: ['3', '1'] },
      ),
    ).toBe(true)
    // "Search in" means nothing without text.
    expect(sameViewState({ ...EMPTY_VIEW_STATE, searchColumn: 'email' }, EMPTY_VIEW_STATE)).toBe(true)
    expect(sameViewState(LEAVERS, { ...LEAVERS, sort: { column: 'hireDate', order: 'asc' } })).toBe(false)
    expect(
      sameViewState(LEAVERS, {
        ...LEAVERS,
        columns: { keys: ['firstName', 'lastName', 'hireDate'], widths: {} },
      }),
    ).toBe(false)
  })
})

describe('ViewStore', () => {
  it('saves, lists by name, renames and deletes one profile’s views', () => {
    const views = new ViewStore(new MemoryKeyValueBackend())
    const leavers = views.save('p1', {
      name: '  Leavers   November ',
      state: LEAVERS,
      replace: false,
      savedAt: SAVED_AT,
    })
    expect(leavers).toEqual({
      id: 'v1',
      name: 'Leavers November',
      state: LEAVERS,
      savedAt: '2026-11-25T09:12:00.000Z',
    })
    views.save('p1', { name: 'active staff', state: EMPTY_VIEW_STATE, replace: false, savedAt: SAVED_AT })
    expect(views.list('p1').map((view) => view.name)).toEqual(['active staff', 'Leavers November'])
    expect(views.list('p2')).toEqual([])

    expect(views.rename('p1', 'v1', 'Leavers')).toMatchObject({ id: 'v1', name: 'Leavers' })
    views.delete('p1', 'v2')
    expect(views.list('p1').map((view) => [view.id, view.name])).toEqual([['v1', 'Leavers']])
    // Ids are never reused while a view holds one, so a rename or delete cannot hit the wrong view.
    expect(
      views.save('p1', { name: 'Next', state: EMPTY_VIEW_STATE, replace: false, savedAt: SAVED_AT }).id,
    ).toBe('v2')
  })

  it('replaces a view of the same name (any case) only when asked, keeping its id', () => {
    const views = new ViewStore(new MemoryKeyValueBackend())
    views.save('p1', { name: 'Leavers', state: LEAVERS, replace: false, savedAt: SAVED_AT })
    expect(() =>
      views.save('p1', { name: 'LEAVERS', state: EMPTY_VIEW_STATE, replace: false, savedAt: SAVED_AT }),
    ).toThrow(
      expect.objectContaining({ code: 'validation', message: 'A view named "Leavers" exists. Replace it?' }),
    )
    const replaced = views.save('p1', {
      name: 'LEAVERS',
      state: EMPTY_VIEW_STATE,
      replace: true,
      savedAt: SAVED_AT,
    })
    expect(replaced).toMatchObject({ id: 'v1', name: 'LEAVERS', state: EMPTY_VIEW_STATE })
    expect(views.list('p1')).toHaveLength(1)
  })

  it('words each name problem for the clerk', () => {
    const views = new ViewStore(new MemoryKeyValueBackend())
    views.save('p1', { name: 'Leavers', state: LEAVERS, replace: false, savedAt: SAVED_AT })
    views.save('p1', { name: 'Joiners', state: LEAVERS, replace: false, savedAt: SAVED_AT })
    const save = (name: string) => () =>
      views.save('p1', { name, state: LEAVERS, replace: false, savedAt: SAVED_AT })
    expect(save('   ')).toThrow('Enter a name for the view.')
    expect(save('x'.repeat(61))).toThrow("Use at most 60 characters for the view's name.")
    expect(() => views.rename('p1', 'v2', 'leavers')).toThrow('A view named "leavers" exists.')
    expect(() => views.rename('p1', 'v9', 'Other')).toThrow(expect.objectContaining({ code: 'not-found' }))
    expect(() => views.delete('p1', 'v9')).toThrow('That view no longer exists.')
  })

  it('keeps at most the limit of saved views per profile', () => {
    const views = new ViewStore(new MemoryKeyValueBackend())
    for (let i = 0; i < VIEW_LIMITS.saved; i += 1) {
      views.save('p1', { name: `View ${i}`, state: EMPTY_VIEW_STATE, replace: false, savedAt: SAVED_AT })
    }
    expect(() =>
      views.save('p1', { name: 'One more', state: EMPTY_VIEW_STATE, replace: false, savedAt: SAVED_AT }),
    ).toThrow(`A profile keeps at most ${VIEW_LIMITS.saved} saved views. Delete one you no longer use first.`)
    // Replacing one is still possible at the limit.
    expect(
      views.save('p1', { name: 'View 0', state: LEAVERS, replace: true, savedAt: SAVED_AT }).state,
    ).toEqual(LEAVERS)
  })

  it('keeps each profile’s current view in the settings backend, which a new store reads back', () => {
    const backend = new MemoryKeyValueBackend()
    const views = new ViewStore(backend)
    expect(views.current('p1')).toBeUndefined()
    views.setCurrent('p1', LEAVERS)
    views.setCurrent('p2', EMPTY_VIEW_STATE)
    views.save('p2', { name: 'All', state: EMPTY_VIEW_STATE, replace: false, savedAt: SAVED_AT })
    const reopened = new ViewStore(backend)
    expect(reopened.current('p1')).toEqual(LEAVERS)
    expect(reopened.current('p2')).toEqual(EMPTY_VIEW_STATE)
    expect(reopened.list('p1')).toEqual([])
    expect(reopened.list('p2').map((view) => view.name)).toEqual(['All'])
  })

  it('skips what no longer reads, one entry at a time', () => {
    const backend = new MemoryKeyValueBackend()
    backend.set(VIEWS_STORAGE_KEY, {
      p1: {
        current: { text: 42 },
        saved: [
          { id: 'v1', name: 'Good', state: LEAVERS, savedAt: '2026-11-25T09:12:00.000Z' },
          { id: 'v2', name: 'Bad state', state: { text: 'x', statuses: 'all' }, savedAt: 'x' },
          { id: 'v3', name: 'good', state: LEAVERS, savedAt: 'x' },
          { id: 'nope', name: 'Bad id', state: LEAVERS, savedAt: 'x' },
          'rubbish',
        ],
      },
      p2: 'rubbish',
    })
    const views = new ViewStore(backend)
    expect(views.current('p1')).toBeUndefined()
    expect(views.list('p1').map((view) => view.name)).toEqual(['Good'])
    expect(views.list('p2')).toEqual([])
    expect(readSavedViews('not a list')).toEqual([])
  })

  it('says so when the settings file cannot be written, and keeps what the file had', () => {
    const backend = new MemoryKeyValueBackend()
    const views = new ViewStore(backend)
    views.save('p1', { name: 'Leavers', state: LEAVERS, replace: false, savedAt: SAVED_AT })
    backend.set = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
    }
    expect(() => views.rename('p1', 'v1', 'Left')).toThrow(
      expect.objectContaining({
        code: 'storage',
        message:
          'RosterDesk could not write its settings file, so the view was not kept. Free some disk space and try again.',
      }),
    )
    expect(views.list('p1').map((view) => view.name)).toEqual(['Leavers'])
  })

  it('goes with its profile when the profile is deleted', () => {
    const backend = new MemoryKeyValueBackend()
    const settings = new SettingsStore(backend)
    const acme = settings.profiles.create('Acme Ltd')
    settings.profiles.views.save(acme.id, {
      name: 'Leavers',
      state: LEAVERS,
      replace: false,
      savedAt: SAVED_AT,
    })
    settings.profiles.views.setCurrent(acme.id, LEAVERS)
    settings.profiles.views.setCurrent('p1', EMPTY_VIEW_STATE)
    settings.profiles.delete(acme.id)
    expect(Object.keys(backend.get(VIEWS_STORAGE_KEY) as object)).toEqual(['p1'])
    expect(settings.profiles.views.list(acme.id)).toEqual([])
    expect(settings.profiles.views.current(acme.id)).toBeUndefined()
    // The first profile's views stay.
    expect(settings.profiles.views.current('p1')).toEqual(EMPTY_VIEW_STATE)
  })
})

describe('the views:* channels', () => {
  function channels() {
    const settings = new SettingsStore(new MemoryKeyValueBackend())
    const other = settings.profiles.create('Acme Ltd')
    const handlers = createViewHandlers({
      views: settings.profiles.views,
      activeProfileId: () => settings.profiles.activeId,
      profileExists: (id) => settings.profiles.list().some((profile) => profile.id === id),
      clock: { now: () => SAVED_AT.getTime() },
    }) as InvokeHandlers
    const invoke = async (channel: string, ...args: unknown[]): Promise<unknown> => {
      const result = await dispatchInvoke(handlers, channel, args)
      if (!result.ok) throw Object.assign(new Error(result.error.message), { ipc: result.error })
      return result.value
    }
    return { settings, other, invoke }
  }

  it('answer from the active profile and keep a current view for the profile named', async () => {
    const { settings, other, invoke } = channels()
    expect(await invoke('views:get-current')).toEqual({ profileId: 'p1', state: null })
    expect(await invoke('views:set-current', 'p1', LEAVERS)).toBe(true)
    expect(await invoke('views:get-current')).toEqual({ profileId: 'p1', state: LEAVERS })
    expect(await invoke('views:save', 'Leavers', LEAVERS, false)).toEqual([
      { id: 'v1', name: 'Leavers', state: LEAVERS, savedAt: '2026-11-25T09:12:00.000Z' },
    ])

    // After a switch, a save still on its way from the previous profile lands on that profile.
    settings.profiles.setActive(other.id)
    expect(await invoke('views:set-current', 'p1', EMPTY_VIEW_STATE)).toBe(true)
    expect(await invoke('views:get-current')).toEqual({ profileId: other.id, state: null })
    expect(await invoke('views:list')).toEqual([])
    expect(settings.profiles.views.current('p1')).toEqual(EMPTY_VIEW_STATE)
    // A profile deleted meanwhile gets nothing.
    expect(await invoke('views:set-current', 'p9', LEAVERS)).toBe(false)
  })

  it('refuse states outside the schema and name problems with the field', async () => {
    const { invoke } = channels()
    await expect(
      invoke('views:save', 'Bad', { ...LEAVERS, sort: { column: 'x;', order: 'up' } }, false),
    ).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
    await expect(invoke('views:set-current', 'p1', { text: 'x' })).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
    await invoke('views:save', 'Leavers', LEAVERS, false)
    await expect(invoke('views:save', 'leavers', EMPTY_VIEW_STATE, false)).rejects.toMatchObject({
      ipc: {
        code: 'validation',
        message: 'A view named "Leavers" exists. Replace it?',
        fieldErrors: { name: 'A view named "Leavers" exists. Replace it?' },
      },
    })
    expect(await invoke('views:rename', 'v1', 'Left us')).toMatchObject([{ id: 'v1', name: 'Left us' }])
    expect(await invoke('views:delete', 'v1')).toEqual([])
    await expect(invoke('views:delete', 'v1')).rejects.toMatchObject({ ipc: { code: 'not-found' } })
  })
})
