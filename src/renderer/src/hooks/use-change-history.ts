import { useEffect, useState } from 'react'
import type { ChangeHistoryEntry } from '../../../shared/domain/changes'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

export type ChangeHistoryState =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly runs: readonly ChangeHistoryEntry[] }
  | { readonly status: 'failed'; readonly message: string }

/** The last complete syncs, newest first (`changes:history`), read again whenever a sync replaced the data. */
export function useChangeHistory(dataVersion: string): ChangeHistoryState {
  const client = useClient()
  const [state, setState] = useState<ChangeHistoryState>({ status: 'loading' })
  useEffect(() => {
    let live = true
    client.call('changes:history').then(
      (runs) => live && setState({ status: 'ready', runs }),
      (error: unknown) => live && setState({ status: 'failed', message: errorMessage(error) }),
    )
    return () => {
      live = false
    }
  }, [client, dataVersion])
  return state
}
