import { useEffect, useReducer, useState } from 'react'
import type { QueryResult, RowQuery } from '../../../shared/domain'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { RowWindowCache } from '../data/row-window-cache'
import { toQuery, type EmployeeFilters } from '../data/employee-filters'

export interface LoadedRows {
  readonly cache: RowWindowCache
  readonly facets: QueryResult['facets']
  /** Which query (and data version) the rows answer, so the table resets scroll and selection when it changes. */
  readonly key: string
}

export type RowsState =
  | { readonly status: 'loading'; readonly previous: LoadedRows | undefined }
  | ({ readonly status: 'ready' } & LoadedRows)
  | { readonly status: 'error'; readonly message: string }

type Outcome = { key: string; loaded: LoadedRows } | { key: string; message: string }

/** First window of every query, with facet counts; later windows come through the cache. */
const FIRST_WINDOW = 100

/**
 * The rows of the current filters: the first window and the facet counts are fetched at once, later windows on
 * demand through the returned cache. `dataVersion` changes after a sync so the same filters are asked again.
 * Answers to a query the clerk has already replaced are dropped.
 */
export function useEmployeeRows(
  filters: EmployeeFilters,
  dataVersion: string,
): RowsState & { retry: () => void; revision: number } {
  const client = useClient()
  const [outcome, setOutcome] = useState<Outcome>()
  const [revision, bump] = useReducer((n: number) => n + 1, 0)
  const [attempt, retry] = useReducer((n: number) => n + 1, 0)
  // One string for everything the answer depends on: a new filters object with the same content must not refetch.
  const wanted = JSON.stringify({ query: toQuery(filters), dataVersion, attempt })

  useEffect(() => {
    const { query } = JSON.parse(wanted) as { query: RowQuery }
    let cache: RowWindowCache | undefined
    let stale = false
    client
      .call('employees:query', { ...query, offset: 0, limit: FIRST_WINDOW, facets: true })
      .then((first) => {
        if (stale) return
        cache = new RowWindowCache(
          (offset, limit) => client.call('employees:query', { ...query, offset, limit }),
          bump,
          first,
        )
        setOutcome({ key: wanted, loaded: { cache, facets: first.facets, key: wanted } })
      })
      .catch((error: unknown) => {
        if (!stale) setOutcome({ key: wanted, message: errorMessage(error) })
      })
    return () => {
      stale = true
      cache?.dispose()
    }
  }, [client, wanted])

  const base = { retry, revision }
  if (outcome === undefined || outcome.key !== wanted) {
    const previous = outcome !== undefined && 'loaded' in outcome ? outcome.loaded : undefined
    return { ...base, status: 'loading', previous }
  }
  if ('message' in outcome) return { ...base, status: 'error', message: outcome.message }
  return { ...base, status: 'ready', ...outcome.loaded }
}
