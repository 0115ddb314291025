import {
  deleteViewIn,
  readSavedViews,
  readViewState,
  renameViewIn,
  saveViewIn,
  sortViews,
  type SavedView,
  type ViewListChange,
  type ViewState,
} from '../../../shared/view-schema'
import { RosterDeskError } from '../errors'
import type { KeyValueBackend } from './key-value-backend'

/**
 * The backend key. Views sit beside the profiles in the settings file (electron-store writes it whole, through a
 * temporary file and a rename), keyed by profile id, so the CLI's `--profile NAME --view NAME` reads them from
 * the same file and deleting a profile deletes its views with it.
 */
export const VIEWS_STORAGE_KEY = 'views'

interface ProfileViews {
  current?: ViewState
  saved: SavedView[]
}

/**
 * Each profile's views: the one last on screen (`current`) and the saved ones. The list rules (names, ids,
 * replacing) are the shared ones in view-schema.ts; this class only reads, checks and writes through.
 */
export class ViewStore {
  readonly #backend: KeyValueBackend

  constructor(backend: KeyValueBackend) {
    this.#backend = backend
  }

  /** A profile's saved views by name (none for a profile that has none, or that does not exist). */
  list(profileId: string): SavedView[] {
    return sortViews(this.#read(profileId).saved)
  }

  current(profileId: string): ViewState | undefined {
    return this.#read(profileId).current
  }

  setCurrent(profileId: string, state: ViewState): void {
    const views = this.#read(profileId)
    this.#write(profileId, { ...views, current: structuredClone(state) })
  }

  /** Saves `state` as `name`; a name in use is replaced only with `replace` (else 'validation'). */
  save(
    profileId: string,
    input: {
      readonly name: string
      readonly state: ViewState
      readonly replace: boolean
      readonly savedAt: Date
    },
  ): SavedView {
    return this.#change(profileId, (saved) =>
      saveViewIn(saved, { ...input, savedAt: input.savedAt.toISOString() }),
    )
  }

  rename(profileId: string, id: string, name: string): SavedView {
    return this.#change(profileId, (saved) => renameViewIn(saved, id, name))
  }

  delete(profileId: string, id: string): void {
    this.#change(profileId, (saved) => deleteViewIn(saved, id))
  }

  /** Forgets every view of a deleted profile. */
  deleteProfile(profileId: string): void {
    const all = this.#readAll()
    if (!Object.hasOwn(all, profileId)) return
    this.#set(Object.fromEntries(Object.entries(all).filter(([id]) => id !== profileId)))
  }

  #change(profileId: string, apply: (saved: SavedView[]) => ViewListChange): SavedView {
    const views = this.#read(profileId)
    const result = apply(views.saved)
    if (!result.ok) {
      throw new RosterDeskError(result.code, result.problem, {
        ...(result.code === 'validation' ? { fieldErrors: { name: result.problem } } : {}),
      })
    }
    this.#write(profileId, { ...views, saved: result.views })
    return structuredClone(result.view)
  }

  #readAll(): Record<string, unknown> {
    const stored: unknown = this.#backend.get(VIEWS_STORAGE_KEY)
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {}
    return { ...(stored as Record<string, unknown>) }
  }

  /** One profile's views as far as they read (a bad entry is skipped, never the whole list). */
  #read(profileId: string): ProfileViews {
    const entry = this.#readAll()[profileId]
    if (typeof entry !== 'object' || entry === null) return { saved: [] }
    const { current, saved } = entry as { current?: unknown; saved?: unknown }
    const state = readViewState(current)
    return { ...(state === undefined ? {} : { current: state }), saved: readSavedViews(saved) }
  }

  #write(profileId: string, views: ProfileViews): void {
    this.#set({ ...this.#readAll(), [profileId]: views })
  }

  /** Nothing is kept in memory, so a write that failed leaves the views as the file has them. */
  #set(value: Record<string, unknown>): void {
    try {
      this.#backend.set(VIEWS_STORAGE_KEY, value)
    } catch (error) {
      throw new RosterDeskError(
        'storage',
        'RosterDesk could not write its settings file, so the view was not kept. Free some disk space and try again.',
        { cause: error, detail: error instanceof Error ? error.message : undefined },
      )
    }
  }
}
