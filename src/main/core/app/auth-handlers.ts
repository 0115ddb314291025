import type { AuthService } from '../auth/auth-service'
import type { InvokeHandlers } from '../ipc/dispatch'

export interface AuthHandlerDeps {
  readonly auth: AuthService
}

export type AuthChannel = 'auth:get-state' | 'auth:sign-in' | 'auth:cancel-sign-in' | 'auth:sign-out'

/** The `auth:*` channels: the active profile's sign-in, as its AuthService runs it. */
export function createAuthHandlers(deps: AuthHandlerDeps): Pick<InvokeHandlers, AuthChannel> {
  return {
    'auth:get-state': async () => deps.auth.getState(),
    'auth:sign-in': () => deps.auth.signIn(),
    'auth:cancel-sign-in': async () => deps.auth.cancelSignIn(),
    'auth:sign-out': () => deps.auth.signOut(),
  }
}
