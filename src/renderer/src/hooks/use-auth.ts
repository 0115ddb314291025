import { useCallback, useEffect, useState } from 'react'
import type { AuthState } from '../../../shared/domain/auth'
import { errorCode, errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

export interface AuthController {
  /** Undefined until main has answered `auth:get-state`. */
  readonly state: AuthState | undefined
  /** What went wrong with the last sign-in or sign-out, worded for the clerk. */
  readonly error: string | undefined
  /**
   * Sign-outs main has finished, counted: one may have deleted the saved employees too (the machine policy's
   * clearOnSignOut), after the signed-out state was already said, so what shows them reads again on each.
   */
  readonly signOuts: number
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
  const [signOuts, setSignOuts] = useState(0)

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
  const signOut = useCallback(
    () =>
      run(async () => {
        const next = await client.call('auth:sign-out')
        setSignOuts((count) => count + 1)
        return next
      }),
    [client, run],
  )

  return { state, error: actionError ?? state?.error, signOuts, signIn, cancelSignIn, signOut }
}
