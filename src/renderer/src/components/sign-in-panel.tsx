import type { AuthState } from '../../../shared/domain/auth'
import { environmentLabel } from '../../../shared/settings-rules'
import { SignInWaiting } from './sign-in-waiting'

interface SignInPanelProps {
  readonly auth: AuthState
  readonly error: string | undefined
  readonly onSignIn: () => void
  readonly onCancel: () => void
  readonly onOpenSettings: () => void
}

/**
 * The first screen before any employees are saved: sign in through the system browser, wait for it, or cancel.
 * Once employees are saved, signing in again shows SignInWaiting beside them instead (App).
 */
export function SignInPanel({ auth, error, onSignIn, onCancel, onOpenSettings }: SignInPanelProps) {
  const waiting = auth.status === 'signing-in'
  return (
    <section className="sign-in card" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to RosterDesk</h1>
      <p className="muted">
        Environment: <strong>{environmentLabel(auth.environment)}</strong>
        {auth.tenantId ? (
          <>
            {' · '}Tenant: <strong>{auth.tenantId}</strong>
          </>
        ) : null}
      </p>
      {waiting ? (
        <SignInWaiting onCancel={onCancel} />
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
