import { rowSourceLabel, type RowSource } from '../../../shared/source-identity'
import type { AppInfo } from '../../../shared/domain/app-info'
import type { AuthState } from '../../../shared/domain/auth'
import { environmentLabel } from '../../../shared/settings-rules'
import type { ProfilesController } from '../hooks/use-profiles'
import { OfflineIndicator } from './offline-indicator'
import { ProfileSwitcher } from './profile-switcher'

export type Screen = 'browse' | 'settings'

interface AppHeaderProps {
  readonly info: AppInfo | undefined
  readonly auth: AuthState | undefined
  readonly profiles: ProfilesController
  readonly offline: boolean
  readonly screen: Screen
  readonly onScreen: (screen: Screen) => void
  readonly onSignOut: () => void
  /** Where the saved employees shown came from (their run's record), when known (decision 039). */
  readonly rowSource?: RowSource | undefined
}

const STATUS_TEXT: Record<AuthState['status'], string> = {
  'signed-out': 'Not signed in',
  'signing-in': 'Signing in…',
  'signed-in': 'Signed in',
}

/**
 * The top bar: app name, the active profile and its environment, tenant, sign-in state, offline state and the
 * way to Settings.
 */
export function AppHeader({
  info,
  auth,
  profiles,
  offline,
  screen,
  onScreen,
  onSignOut,
  rowSource,
}: AppHeaderProps) {
  const environment = auth?.environment ?? info?.environment
  return (
    <header className="app-header">
      <div className="brand">
        <span className="app-name">{info?.name ?? 'RosterDesk'}</span>
        {environment && (
          <span
            // Shown for every profile, a Demo one named "Demo" too: the environment is always read in one place.
            className={`env-badge env-${environment}`}
            aria-label={`Environment: ${environmentLabel(environment)}`}
          >
            {environmentLabel(environment)}
          </span>
        )}
        <ProfileSwitcher profiles={profiles} />
        {rowSource?.environment !== undefined && rowSource.environment !== environment ? (
          // Employees restored after the profile's source changed: the badge says the setting, this the rows.
          <span className="rows-source" role="note">
            Showing <bdi>{rowSourceLabel(rowSource)}</bdi> employees
          </span>
        ) : null}
      </div>
      <div className="session" role="group" aria-label="Session">
        {auth?.tenantId ? (
          <span className="tenant">
            Tenant <strong>{auth.tenantId}</strong>
          </span>
        ) : null}
        <span className={`auth-status auth-${auth?.status ?? 'unknown'}`} role="status">
          {auth ? STATUS_TEXT[auth.status] : 'Checking sign-in…'}
        </span>
        <OfflineIndicator offline={offline} />
      </div>
      <nav className="header-actions" aria-label="App">
        {screen === 'settings' ? (
          <button type="button" onClick={() => onScreen('browse')}>
            Back to employees
          </button>
        ) : (
          <button type="button" onClick={() => onScreen('settings')}>
            Settings
          </button>
        )}
        {auth?.status === 'signed-in' && (
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        )}
      </nav>
    </header>
  )
}
