import { useCallback, useEffect, useRef, useState } from 'react'
import { EMPTY_VIEW_STATE, sameViewState, type ViewState } from '../../../shared/view-schema'
import { useClient } from '../api/client-context'

/** Changes settle for this long before they are kept, so typing a search writes the settings file once. */
export const VIEW_SAVE_DEBOUNCE_MS = 400

/**
 * Keeps the browse view (search, filters, sort, columns) per profile across reloads, restarts and signing in
 * again; main's current view is the one store of all of it, the table's column layout included. On mount it reads
 * the active profile's last view (`views:get-current`) and hands it to `restore` with the profile main read (null:
 * none kept), then keeps `current` (`views:set-current`): debounced, except a change of the column layout, which
 * is one deliberate act (a drop, a resize, a toggle) and is sent at once, so a reload right after it keeps it.
 * Main answers which profile it read, and each save names that profile, so a save still pending when the clerk
 * switches profile lands on the profile it belongs to; one still pending when the window goes (unmount, reload,
 * close) is sent at once rather than lost. Answers whether the kept view has been restored: until then the screen
 * shows nothing the view decides, so it never flashes a default first.
 */
export function useViewState(
  current: ViewState,
  restore: (state: ViewState | null, profileId: string) => void,
): boolean {
  const client = useClient()
  const [restored, setRestored] = useState(false)
  const profileId = useRef<string>(undefined)
  /** The last state main holds (read or written), so an unchanged view is never written again. */
  const kept = useRef<ViewState>(undefined)
  const pending = useRef<ViewState>(undefined)
  const restoreRef = useRef(restore)
  useEffect(() => {
    restoreRef.current = restore
  }, [restore])

  useEffect(() => {
    let live = true
    client.call('views:get-current').then(
      ({ profileId: id, state }) => {
        if (!live) return
        profileId.current = id
        if (state !== null) kept.current = state
        restoreRef.current(state, id)
        setRestored(true)
      },
      // Nothing could be read: start from an empty view, and keep what the clerk does from here on.
      () => live && setRestored(true),
    )
    return () => {
      live = false
    }
  }, [client])

  /** Sends the change waiting to be kept, if any, to the profile it was made in. */
  const send = useCallback((): void => {
    const state = pending.current
    const id = profileId.current
    pending.current = undefined
    if (state === undefined || id === undefined) return
    kept.current = state
    // A view that could not be kept costs only the next restore; the clerk's work on screen is unaffected.
    client.call('views:set-current', id, state).catch(() => undefined)
  }, [client])

  useEffect(() => {
    window.addEventListener('pagehide', send)
    return () => {
      window.removeEventListener('pagehide', send)
      send()
    }
  }, [send])

  // Keyed by content: the caller builds `current` afresh on every render.
  const currentKey = JSON.stringify(current)
  useEffect(() => {
    if (!restored) return
    const shown = JSON.parse(currentKey) as ViewState
    // Until the data's columns are read the table has no layout to report; the one kept stays.
    const columns = shown.columns ?? kept.current?.columns
    const state: ViewState = { ...shown, ...(columns === undefined ? {} : { columns }) }
    if (kept.current !== undefined && sameViewState(kept.current, state) && pending.current === undefined)
      return
    pending.current = state
    if (!sameColumns(kept.current?.columns, state.columns)) {
      send()
      return
    }
    const timer = window.setTimeout(send, VIEW_SAVE_DEBOUNCE_MS)
    return () => window.clearTimeout(timer)
  }, [send, currentKey, restored])
  return restored
}

/** Whether two layouts are the same by the rule that compares whole views. */
function sameColumns(a: ViewState['columns'], b: ViewState['columns']): boolean {
  const only = (columns: ViewState['columns']): ViewState =>
    columns === undefined ? EMPTY_VIEW_STATE : { ...EMPTY_VIEW_STATE, columns }
  return sameViewState(only(a), only(b))
}
