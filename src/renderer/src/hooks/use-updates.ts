import { useCallback, useEffect, useState } from 'react'
import type { UpdateRestartResult, UpdateState } from '../../../shared/update-state'
import { useClient } from '../api/client-context'

export interface UpdatesController {
  /** Main's updater state; undefined until the first answer. */
  readonly state: UpdateState | undefined
  /** Why the last "Restart to update" had to wait (a sync, an export or a print), or undefined. */
  readonly waitReason: string | undefined
  readonly restarting: boolean
  restart(): void
}

/**
 * Main's updater as the window follows it: `updates:get-state` once, then every `updates:state`; "Restart to
 * update" is `updates:restart`, which main refuses with its reason while something runs. A failed request leaves
 * the banner as it was: updates never put an error in front of the clerk.
 */
export function useUpdates(): UpdatesController {
  const client = useClient()
  const [state, setState] = useState<UpdateState | undefined>(undefined)
  const [waitReason, setWaitReason] = useState<string | undefined>(undefined)
  const [restarting, setRestarting] = useState(false)
  useEffect(() => {
    let live = true
    const off = client.on('updates:state', (next) => setState(next))
    client
      .call('updates:get-state')
      .then((first) => live && setState((current) => current ?? first))
      .catch(() => undefined)
    return () => {
      live = false
      off()
    }
  }, [client])
  const restart = useCallback(() => {
    setRestarting(true)
    client
      .call('updates:restart')
      .then((result: UpdateRestartResult) => {
        setWaitReason(result.status === 'busy' ? result.reason : undefined)
        if (result.status !== 'restarting') setRestarting(false)
      })
      .catch(() => setRestarting(false))
  }, [client])
  return { state, waitReason, restarting, restart }
}
