import { useEffect, useState } from 'react'
import type { FacetCount } from '../../../shared/domain/query'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

export type PayCyclesState =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly payCycles: readonly FacetCount[] }
  | { readonly status: 'failed'; readonly message: string }

/**
 * The pay cycles present in the saved employees, each with its number of employees: the `payCycle` facet of
 * `employees:query`, the same answer the roster dialog lists, read again whenever a sync replaced the data.
 */
export function usePayCycles(dataVersion: string): PayCyclesState {
  const client = useClient()
  const [state, setState] = useState<PayCyclesState>({ status: 'loading' })
  useEffect(() => {
    let live = true
    client.call('employees:query', { limit: 0, facets: true }).then(
      (result) => live && setState({ status: 'ready', payCycles: result.facets?.payCycle ?? [] }),
      (error: unknown) => live && setState({ status: 'failed', message: errorMessage(error) }),
    )
    return () => {
      live = false
    }
  }, [client, dataVersion])
  return state
}
