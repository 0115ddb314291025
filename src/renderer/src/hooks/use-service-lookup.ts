import { useCallback, useRef, useState } from 'react'
import type { ServiceLookupRequest, ServiceLookupResult } from '../../../shared/domain/lookup'
import type { IpcError } from '../../../shared/ipc-contract'
import { errorCode, errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

/** What was asked: the text and the "Search in" column, which decide whether a shown answer still applies. */
export interface ServiceLookupAsked {
  readonly text: string
  readonly column: string | undefined
}

export type ServiceLookupState =
  | { readonly status: 'idle' }
  | { readonly status: 'looking-up'; readonly asked: ServiceLookupAsked }
  | { readonly status: 'done'; readonly asked: ServiceLookupAsked; readonly result: ServiceLookupResult }
  | {
      readonly status: 'error'
      readonly asked: ServiceLookupAsked
      readonly message: string
      readonly code: IpcError['code']
    }

export interface ServiceLookupController {
  readonly state: ServiceLookupState
  lookUp(request: ServiceLookupRequest): void
  clear(): void
}

/**
 * One live lookup on the payroll service at a time, through main (`employees:lookup-service`). A newer lookup or
 * `clear` makes an older answer stale, and a stale answer is dropped when it arrives.
 */
export function useServiceLookup(): ServiceLookupController {
  const client = useClient()
  const [state, setState] = useState<ServiceLookupState>({ status: 'idle' })
  const latest = useRef(0)

  const lookUp = useCallback(
    (request: ServiceLookupRequest): void => {
      const id = ++latest.current
      const asked: ServiceLookupAsked = { text: request.text, column: request.column }
      setState({ status: 'looking-up', asked })
      client.call('employees:lookup-service', request).then(
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

  return { state, lookUp, clear }
}
