import { useState } from 'react'
import { createPortal } from 'react-dom'
import { environmentLabel, profileLabel } from '../../../shared/settings-rules'
import type { ProfilesController } from '../hooks/use-profiles'
import { ManageProfilesDialog } from './manage-profiles-dialog'

interface ProfileSwitcherProps {
  readonly profiles: ProfilesController
}

/**
 * The active profile, named in the header, the one-click way to another, and "Manage profiles…" (rename, delete,
 * create). Each option says its environment unless its name already does ("Demo"), so two client companies on
 * Staging are told apart by name and Staging is never mistaken for Production; the select's accessible name
 * always carries the active profile's environment.
 */
export function ProfileSwitcher({ profiles }: ProfileSwitcherProps) {
  const [managing, setManaging] = useState(false)
  const { list } = profiles
  if (list === undefined) return null
  const active = list.profiles.find((profile) => profile.id === list.activeId)

  return (
    <div className="profile-switcher">
      <label>
        <span className="profile-label">Profile</span>
        <select
          // Starts with the visible label, and always says the environment, which an option may not repeat.
          aria-label={
            active === undefined ? 'Profile' : `Profile (${environmentLabel(active.environment)} environment)`
          }
          value={list.activeId}
          disabled={profiles.switching}
          onChange={(event) => profiles.switchTo(event.target.value)}
        >
          {list.profiles.map((profile) => (
            <option key={profile.id} value={profile.id}>
              {profileLabel(profile)}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => setManaging(true)}>
        Manage profiles…
      </button>
      {/* Outside the header's banner landmark: a modal dialog belongs to the whole page. */}
      {managing &&
        createPortal(
          <ManageProfilesDialog profiles={profiles} onClose={() => setManaging(false)} />,
          document.body,
        )}
      {profiles.error ? (
        <span className="profile-error" role="alert">
          {profiles.error}
        </span>
      ) : null}
    </div>
  )
}
