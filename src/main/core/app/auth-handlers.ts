import type { AuthService } from '../auth/auth-service'
import type { InvokeHandlers } from '../ipc/dispatch'

export interface AuthHandlerDeps {
  readonly auth: AuthService
  /**
   * Runs once a sign-out has deleted the tokens (the machine policy's `personalData.clearOnSignOut`: the
   * profile's saved employees deleted too); absent: nothing more.
   */
  readonly afterSignOut?: () => Promise<void>
}

export type AuthChannel = 'auth:get-state' | 'auth:sign-in' | 'auth:cancel-sign-in' | 'auth:sign-out'

/** The `auth:*` channels: the active profile's sign-in, as its AuthService runs it. */
export function createAuthHandlers(deps: AuthHandlerDeps): Pick<InvokeHandlers, AuthChannel> {
  return {
    'auth:get-state': async () => deps.auth.getState(),
    'auth:sign-in': () => deps.auth.signIn(),
    'auth:cancel-sign-in': async () => deps.auth.cancelSignIn(),
    'auth:sign-out': async () => {
      const state = await deps.auth.signOut()
      if (deps.afterSignOut === undefined) return state
      await deps.afterSignOut()
      // `auth` is read again: the session may have been opened anew.
      return deps.auth.getState()
    },
  }
}
