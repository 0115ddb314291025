import { useCallback, useEffect, useRef, useState } from 'react'
import type { ConnectionReport } from '../../../shared/connection-report'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

/** "Test connection" as it stands: not run yet, running, its report, or why the check itself could not run. */
export type ConnectionCheckState =
  | { readonly status: 'idle' }
  | { readonly status: 'running' }
  | { readonly status: 'done'; readonly report: ConnectionReport }
  | { readonly status: 'failed'; readonly message: string }

export interface ConnectionCheckController {
  readonly state: ConnectionCheckState
  /** Runs `network:check`, one at a time; the last report gives way to the running state until the new one. */
  run(): void
}

/**
 * Runs main's connection check (`network:check`, the active profile's saved settings through Electron's network
 * stack). A failing step is part of the report; only a check that could not run at all answers an error.
 */
export function useConnectionCheck(): ConnectionCheckController {
  const client = useClient()
  const [state, setState] = useState<ConnectionCheckState>({ status: 'idle' })
  const running = useRef(false)
  // An answer that comes after Settings closed changes nothing.
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  const run = useCallback(() => {
    if (running.current) return
    running.current = true
    setState({ status: 'running' })
    client
      .call('network:check')
      .then(
        (report): ConnectionCheckState => ({ status: 'done', report }),
        (error: unknown): ConnectionCheckState => ({ status: 'failed', message: errorMessage(error) }),
      )
      .then((next) => {
        running.current = false
        if (mounted.current) setState(next)
      })
  }, [client])

  return { state, run }
}
