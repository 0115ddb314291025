import { useCallback, useEffect, useState } from 'react'
import type { AuthState } from '../../../shared/domain/auth'
import { errorCode, errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

export interface AuthController {
  /** Undefined until main has answered `auth:get-state`. */
  readonly state: AuthState | undefined
  /** What went wrong with the last sign-in or sign-out, worded for the clerk. */
  readonly error: string | undefined
  signIn(): void
  cancelSignIn(): void
  signOut(): void
}

/**
 * Sign-in state, kept current by `auth:changed`. `auth:sign-in` resolves only when the browser round trip is over,
 * so the waiting state shows at once (before main's event arrives) and Cancel stays reachable meanwhile.
 */
export function useAuth(): AuthController {
  const client = useClient()
  const [state, setState] = useState<AuthState>()
  const [actionError, setActionError] = useState<string>()

  useEffect(() => {
    let live = true
    const unsubscribe = client.on('auth:changed', (next) => {
      if (!live) return
      setState(next)
      // Signed in, by this window or by a sign-in that finished on its own: an earlier action's problem is over.
      if (next.status === 'signed-in') setActionError(undefined)
    })
    client
      .call('auth:get-state')
      .then((next) => live && setState(next))
      .catch((error: unknown) => live && setActionError(errorMessage(error)))
    return () => {
      live = false
      unsubscribe()
    }
  }, [client])

  const run = useCallback(
    (action: () => Promise<AuthState>) => {
      setActionError(undefined)
      action()
        .then(setState)
        .catch((error: unknown) => {
          if (errorCode(error) !== 'cancelled') setActionError(errorMessage(error))
          client.call('auth:get-state').then(setState, () => undefined)
        })
    },
    [client],
  )

  const signIn = useCallback(() => {
    setState((current) => current && { ...current, status: 'signing-in', error: undefined })
    run(() => client.call('auth:sign-in'))
  }, [client, run])
  const cancelSignIn = useCallback(() => run(() => client.call('auth:cancel-sign-in')), [client, run])
  const signOut = useCallback(() => run(() => client.call('auth:sign-out')), [client, run])

  return { state, error: actionError ?? state?.error, signIn, cancelSignIn, signOut }
}
