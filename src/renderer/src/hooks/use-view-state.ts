import { useCallback, useEffect, useRef, useState } from 'react'
import { sameViewState, type ViewState } from '../../../shared/view-schema'
import { useClient } from '../api/client-context'

/** Changes settle for this long before they are kept, so typing a search writes the settings file once. */
export const VIEW_SAVE_DEBOUNCE_MS = 400

/**
 * Keeps the browse view (search, filters, sort, columns) per profile across reloads, restarts and signing in
 * again: on mount it reads the active profile's last view (`views:get-current`) and hands it to `apply`, then
 * keeps `current` (`views:set-current`), debounced. Main answers which profile it read, and each save names that
 * profile, so a save still pending when the clerk switches profile lands on the profile it belongs to; one still
 * pending when the window goes (unmount, reload, close) is sent at once rather than lost.
 */
export function useViewState(current: ViewState, apply: (state: ViewState) => void): void {
  const client = useClient()
  const [restored, setRestored] = useState(false)
  const profileId = useRef<string>(undefined)
  /** The last state main holds (read or written), so an unchanged view is never written again. */
  const kept = useRef<ViewState>(undefined)
  const pending = useRef<ViewState>(undefined)
  const applyRef = useRef(apply)
  useEffect(() => {
    applyRef.current = apply
  }, [apply])

  useEffect(() => {
    let live = true
    client.call('views:get-current').then(
      ({ profileId: id, state }) => {
        if (!live) return
        profileId.current = id
        if (state !== null) {
          kept.current = state
          applyRef.current(state)
        }
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
    const timer = window.setTimeout(send, VIEW_SAVE_DEBOUNCE_MS)
    return () => window.clearTimeout(timer)
  }, [send, currentKey, restored])
}
