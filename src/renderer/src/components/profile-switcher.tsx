import { useState, type FormEvent } from 'react'
import { environmentLabel } from '../../../shared/settings-rules'
import type { ProfilesController } from '../hooks/use-profiles'

interface ProfileSwitcherProps {
  readonly profiles: ProfilesController
}

/**
 * The active profile, named in the header, and the one-click way to another. Each option says its environment,
 * so two client companies on Staging are told apart by name and Staging is never mistaken for Production.
 */
export function ProfileSwitcher({ profiles }: ProfileSwitcherProps) {
  const [adding, setAdding] = useState(false)
  const [name, setName] = useState('')
  const { list } = profiles
  if (list === undefined) return null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void profiles.create(name).then((created) => {
      if (!created) return
      setAdding(false)
      setName('')
    })
  }

  return (
    <div className="profile-switcher">
      <label>
        <span className="profile-label">Profile</span>
        <select
          value={list.activeId}
          disabled={profiles.switching}
          onChange={(event) => profiles.switchTo(event.target.value)}
        >
          {list.profiles.map((profile) => (
            <option key={profile.id} value={profile.id}>
              {`${profile.name} (${environmentLabel(profile.environment)})`}
            </option>
          ))}
        </select>
      </label>
      {adding ? (
        <form className="profile-add" onSubmit={submit}>
          <label>
            <span className="visually-hidden">New profile name</span>
            <input
              value={name}
              placeholder="Client company"
              onChange={(event) => setName(event.target.value)}
            />
          </label>
          <button type="submit">Add</button>
          <button type="button" onClick={() => setAdding(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" onClick={() => setAdding(true)}>
          New profile
        </button>
      )}
      {profiles.error ? (
        <span className="profile-error" role="alert">
          {profiles.error}
        </span>
      ) : null}
    </div>
  )
}
