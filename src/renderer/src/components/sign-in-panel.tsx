import type { AuthState } from '../../../shared/domain/auth'
import { environmentLabel } from '../../../shared/settings-rules'
import { SignInWaiting } from './sign-in-waiting'

interface SignInPanelProps {
  readonly auth: AuthState
  readonly error: string | undefined
  readonly onSignIn: () => void
  readonly onCancel: () => void
  readonly onOpenSettings: () => void
  /**
   * What the profile lacks before signing in can work (its environment's service address, else its client ID):
   * entering it is the one thing to do first.
   */
  readonly missing?: 'address' | 'client-id' | undefined
  /** Settings, opened at the service's fields (at the one missing). */
  readonly onEnterAddress?: () => void
}

/**
 * The first screen before any employees are saved: sign in through the system browser, wait for it, or cancel; or,
 * while the profile has no service address or client ID, enter it first (signing in would only be refused for the
 * lack of it).
 * Once employees are saved, signing in again shows SignInWaiting beside them instead (App).
 */
export function SignInPanel({
  auth,
  error,
  onSignIn,
  onCancel,
  onOpenSettings,
  missing,
  onEnterAddress = onOpenSettings,
}: SignInPanelProps) {
  const waiting = auth.status === 'signing-in'
  const environment = environmentLabel(auth.environment)
  return (
    <section className="sign-in card" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to RosterDesk</h1>
      <p className="muted">
        Environment: <strong>{environment}</strong>
        {auth.tenantId ? (
          <>
            {' · '}Tenant: <strong>{auth.tenantId}</strong>
          </>
        ) : null}
      </p>
      {waiting ? (
        <SignInWaiting onCancel={onCancel} />
      ) : missing === 'address' ? (
        <>
          <p>
            This profile has no {environment} service address yet. Enter it, with the client ID your IT team
            gave you, in Settings; then sign in here.
          </p>
          <button type="button" className="primary" onClick={onEnterAddress}>
            Enter the service address
          </button>
        </>
      ) : missing === 'client-id' ? (
        <>
          <p>
            This profile has no client ID yet. Enter the client ID your IT team gave you in Settings; then
            sign in here.
          </p>
          <button type="button" className="primary" onClick={onEnterAddress}>
            Enter the client ID
          </button>
        </>
      ) : (
        <>
          <p>
            RosterDesk opens your web browser so you can sign in to the payroll service. Come back here
            afterwards.
          </p>
          <button type="button" className="primary" onClick={onSignIn}>
            Sign in with your browser
          </button>
        </>
      )}
      {error && !waiting ? (
        <div className="message message-error" role="alert">
          {error}
        </div>
      ) : null}
      <p className="muted small">
        Need to change the environment, client ID or secret?{' '}
        <button type="button" className="link" onClick={onOpenSettings}>
          Open settings
        </button>
      </p>
    </section>
  )
}
