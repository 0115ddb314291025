import { useState } from 'react'
import {
  rowSourceLabel,
  rowsFromSettingsSource,
  type IdentitySettings,
  type RowSource,
} from '../../../shared/source-identity'
import type { AppInfo } from '../../../shared/domain/app-info'
import type { AuthState } from '../../../shared/domain/auth'
import { environmentLabel } from '../../../shared/settings-rules'
import type { ProfilesController } from '../hooks/use-profiles'
import { OfflineIndicator } from './offline-indicator'
import { ProfileSwitcher } from './profile-switcher'
import { SignOutDialog } from './sign-out-dialog'
import type { SignOutDeletes } from '../../../shared/policy-view'

export type Screen = 'browse' | 'settings'

interface AppHeaderProps {
  readonly info: AppInfo | undefined
  readonly auth: AuthState | undefined
  readonly profiles: ProfilesController
  readonly offline: boolean
  readonly screen: Screen
  readonly onScreen: (screen: Screen) => void
  readonly onSignOut: () => void
  /** Employees signing out deletes, saved and set aside (the policy's clearOnSignOut): any, and Sign out asks first. */
  readonly signOutDeletes?: SignOutDeletes | undefined
  /** Where the saved employees shown came from (their run's record), when known (decision 039). */
  readonly rowSource?: RowSource | undefined
  /** The profile's saved settings, whose source the rows' is compared with; absent until read. */
  readonly sourceSetting?: IdentitySettings | undefined
}

const STATUS_TEXT: Record<AuthState['status'], string> = {
  'signed-out': 'Not signed in',
  'signing-in': 'Signing in…',
  'signed-in': 'Signed in',
}

/**
 * The top bar: app name, the active profile and its environment, tenant, sign-in state, offline state and the
 * way to Settings. When the rows shown came from another source than the profile's settings (a set-aside cache
 * restored, decision 039) the header names the rows' source and tenant, as the count line and an export's About
 * sheet do, never the settings' tenant over them; the badge still says the setting. When signing out deletes the
 * saved employees (the machine policy), Sign out asks first.
 */
export function AppHeader({
  info,
  auth,
  profiles,
  offline,
  screen,
  onScreen,
  onSignOut,
  signOutDeletes,
  rowSource,
  sourceSetting,
}: AppHeaderProps) {
  const [asking, setAsking] = useState(false)
  const environment = auth?.environment ?? info?.environment
  const activeName = profiles.list?.profiles.find((profile) => profile.id === profiles.list?.activeId)?.name
  const rowsElsewhere =
    rowSource?.environment !== undefined &&
    (sourceSetting === undefined
      ? rowSource.environment !== environment
      : !rowsFromSettingsSource(rowSource, sourceSetting))
  const tenant = rowsElsewhere ? rowSource?.tenantId : auth?.tenantId
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
        {rowsElsewhere && rowSource !== undefined ? (
          // Employees restored after the profile's source changed: the badge says the setting, this the rows.
          <span className="rows-source" role="note">
            Showing <bdi>{rowSourceLabel(rowSource)}</bdi> employees
          </span>
        ) : null}
      </div>
      <div className="session" role="group" aria-label="Session">
        {tenant ? (
          <span className="tenant">
            Tenant <strong>{tenant}</strong>
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
          <button
            type="button"
            onClick={() =>
              signOutDeletes !== undefined && signOutDeletes.saved + signOutDeletes.setAside > 0
                ? setAsking(true)
                : onSignOut()
            }
          >
            Sign out
          </button>
        )}
        {asking && signOutDeletes !== undefined ? (
          <SignOutDialog
            profile={activeName ?? 'this profile'}
            deletes={signOutDeletes}
            onAnswer={(signOut) => {
              setAsking(false)
              if (signOut) onSignOut()
            }}
          />
        ) : null}
      </nav>
    </header>
  )
}
