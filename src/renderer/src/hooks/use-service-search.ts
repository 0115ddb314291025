import { useCallback, useRef, useState } from 'react'
import type { ServiceSearchRequest, ServiceSearchResult } from '../../../shared/domain'
import type { IpcError } from '../../../shared/ipc-contract'
import { errorCode, errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

/** What was asked: the text and the "Search in" column, which decide whether a shown answer still applies. */
export interface ServiceSearchAsked {
  readonly text: string
  readonly column: string | undefined
}

export type ServiceSearchState =
  | { readonly status: 'idle' }
  | { readonly status: 'searching'; readonly asked: ServiceSearchAsked }
  | { readonly status: 'done'; readonly asked: ServiceSearchAsked; readonly result: ServiceSearchResult }
  | {
      readonly status: 'error'
      readonly asked: ServiceSearchAsked
      readonly message: string
      readonly code: IpcError['code']
    }

export interface ServiceSearchController {
  readonly state: ServiceSearchState
  search(request: ServiceSearchRequest): void
  clear(): void
}

/**
 * One live lookup on the payroll service at a time, through main (`employees:search-service`). A newer search or
 * `clear` makes an older answer stale, and a stale answer is dropped when it arrives.
 */
export function useServiceSearch(): ServiceSearchController {
  const client = useClient()
  const [state, setState] = useState<ServiceSearchState>({ status: 'idle' })
  const latest = useRef(0)

  const search = useCallback(
    (request: ServiceSearchRequest): void => {
      const id = ++latest.current
      const asked: ServiceSearchAsked = { text: request.text, column: request.column }
      setState({ status: 'searching', asked })
      client.call('employees:search-service', request).then(
        (result) => {
          if (id === latest.current) setState({ status: 'done', asked, result })
        },
        (error: unknown) => {
          if (id !== latest.current) return
          setState({ status: 'error', asked, message: errorMessage(error), code: errorCode(error) })
        },
      )
    },
    [client],
  )

  const clear = useCallback((): void => {
    latest.current++
    setState({ status: 'idle' })
  }, [])

  return { state, search, clear }
}
