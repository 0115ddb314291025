import { useEffect, useReducer, useRef, useState } from 'react'
import type { QueryResult, RowQuery } from '../../../shared/domain/query'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { LatestRequest } from '../data/latest-request'
import { RowWindowCache } from '../data/row-window-cache'
import { toQuery, type EmployeeFilters } from '../data/employee-filters'

export interface LoadedRows {
  readonly cache: RowWindowCache
  readonly facets: QueryResult['facets']
  /** Which query (and data version) the rows answer, so the table resets scroll and selection when it changes. */
  readonly key: string
  /** The same without the sort: answers with the same `matchKey` have the same rows, in another order. */
  readonly matchKey: string
}

/**
 * An answer that takes longer than this shows the clerk that the rows and counts are updating (ResultsView,
 * FilterPanel) rather than leaving the previous ones on screen as if current; quicker ones paint without a flicker.
 */
export const UPDATING_SIGN_MS = 100

export type RowsState =
  | {
      readonly status: 'loading'
      readonly previous: LoadedRows | undefined
      /**
       * The screen has waited longer than UPDATING_SIGN_MS for an answer (to this query or to ones it replaced): say
       * so rather than show `previous` as current.
       */
      readonly slow: boolean
    }
  | ({ readonly status: 'ready' } & LoadedRows)
  | { readonly status: 'error'; readonly message: string }

type Outcome = { key: string; loaded: LoadedRows } | { key: string; message: string }

/** First window of every query, with facet counts; later windows come through the cache. */
const FIRST_WINDOW = 100

/**
 * The rows of the current filters: the first window and the facet counts are fetched at once, later windows on
 * demand through the returned cache. `dataVersion` changes after a sync so the same filters are asked again.
 * Each change asks at once (no debounce): at most two queries are in flight and the newest waits behind them
 * (LatestRequest), so fast typing coalesces, and only the answer to the newest query is ever put on screen.
 * `matches`: how many rows match the filters, when known: the answer's count, or, while only a new order of the
 * same rows is on its way, the count on screen; undefined while other rows are.
 */
export function useEmployeeRows(
  filters: EmployeeFilters,
  dataVersion: string,
): RowsState & { retry: () => void; revision: number; matches: number | undefined } {
  const client = useClient()
  const [requests] = useState(() => new LatestRequest<QueryResult>())
  const [outcome, setOutcome] = useState<Outcome>()
  /**
   * The screen has waited longer than UPDATING_SIGN_MS for an answer: set by the timer, cleared only when an answer
   * is put on screen, so a newer request (a keystroke while the slow answer is away) never brings the old count back.
   */
  const [slow, setSlow] = useState(false)
  /** The timer counting from the first request the screen is still waiting on; undefined once an answer came. */
  const sign = useRef<number | undefined>(undefined)
  /**
   * The cache of the rows on screen, shown as `previous` while newer answers are on its way: it keeps loading pages
   * as the clerk scrolls, and is disposed only when a settled answer takes its place, or when the view goes.
   */
  const shown = useRef<RowWindowCache | undefined>(undefined)
  const [revision, bump] = useReducer((n: number) => n + 1, 0)
  const [attempt, retry] = useReducer((n: number) => n + 1, 0)
  // One string for everything the answer depends on: a new filters object with the same content must not refetch.
  const wanted = JSON.stringify({ query: toQuery(filters), dataVersion, attempt })
  const matchKey = JSON.stringify({ query: toQuery({ ...filters, sort: undefined }), dataVersion })

  useEffect(() => {
    const { query } = JSON.parse(wanted) as { query: RowQuery }
    // A newer request does not restart the count: the screen has been waiting since the first one still unanswered.
    sign.current ??= window.setTimeout(() => setSlow(true), UPDATING_SIGN_MS)
    requests.run(
      () => client.call('employees:query', { ...query, offset: 0, limit: FIRST_WINDOW, facets: true }),
      (answer) => {
        window.clearTimeout(sign.current)
        sign.current = undefined
        setSlow(false)
        // This answer takes the screen: the rows it replaces will not be scrolled again.
        shown.current?.dispose()
        shown.current = undefined
        if (!answer.ok) {
          setOutcome({ key: wanted, message: errorMessage(answer.error) })
          return
        }
        const first = answer.value
        const cache = new RowWindowCache(
          (offset, limit) => client.call('employees:query', { ...query, offset, limit }),
          bump,
          first,
        )
        shown.current = cache
        setOutcome({ key: wanted, loaded: { cache, facets: first.facets, key: wanted, matchKey } })
      },
    )
    // This query is no longer the one wanted: its answer, even one already on its way, is dropped. The rows on
    // screen stay usable until a newer answer replaces them.
    return () => requests.cancel()
  }, [client, requests, wanted, matchKey])
  // The timer and the cache on screen outlive each request's effect (above), not the view.
  useEffect(
    () => () => {
      window.clearTimeout(sign.current)
      sign.current = undefined
      shown.current?.dispose()
      shown.current = undefined
    },
    [],
  )

  const loaded = outcome !== undefined && 'loaded' in outcome ? outcome.loaded : undefined
  // A new order of the same rows (a click on a header) keeps their count while it is on its way: what the count
  // places on screen (the look-up offer, "Did you mean", the export's count) stays put, and the header with it.
  const matches = loaded?.matchKey === matchKey ? loaded.cache.total : undefined
  const base = { retry, revision, matches }
  if (outcome === undefined || outcome.key !== wanted)
    return { ...base, status: 'loading', previous: loaded, slow }
  if ('message' in outcome) return { ...base, status: 'error', message: outcome.message }
  return { ...base, status: 'ready', ...outcome.loaded }
}
