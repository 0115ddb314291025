import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react'
import type { ProfileList, ProfileSummary } from '../../../shared/domain/profiles'
import {
  ENVIRONMENTS,
  environmentLabel,
  normalizeProfileName,
  profileNameProblem,
  type Environment,
} from '../../../shared/settings-rules'
import { POLICY_LOCKED_LABEL } from '../../../shared/policy-view'
import { formatDayMonth } from '../../../shared/locale-format'
import { displayLocale } from '../format/display-locale'
import { plural } from '../format/format-value'
import type { ProfilesController } from '../hooks/use-profiles'
import { ModalDialog } from './modal-dialog'

interface ManageProfilesDialogProps {
  readonly profiles: ProfilesController
  readonly onClose: () => void
}

/** What the clerk is doing to one profile: renaming it, or confirming its deletion. */
type RowMode = { readonly id: string; readonly kind: 'rename' | 'delete' } | undefined

/**
 * "Manage profiles": every profile with its environment, tenant and saved employees; renaming one in place,
 * deleting one that is not active after a confirmation that says what goes with it, and creating one whose name
 * and environment are chosen up front.
 */
export function ManageProfilesDialog({ profiles, onClose }: ManageProfilesDialogProps) {
  const introId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)
  const [mode, setMode] = useState<RowMode>()
  const [notice, setNotice] = useState<string>()
  const { list, refresh } = profiles

  // Counts of saved employees are read when asked for, so ask again for the ones shown here.
  useEffect(() => refresh(), [refresh])

  const done = (message: string): void => {
    setMode(undefined)
    setNotice(message)
  }
  // A deleted profile's row takes its focused button with it: the focus stays in the dialog, not on the page.
  useEffect(() => {
    const element = dialogRef.current
    if (element !== null && !element.contains(document.activeElement)) element.focus()
  }, [notice, list])

  return (
    <ModalDialog
      title="Profiles"
      className="profiles-dialog"
      onClose={onClose}
      head={{ className: 'profiles-dialog-head', closeLabel: 'Close profiles' }}
      describedBy={introId}
      dialogRef={dialogRef}
    >
      <p id={introId} className="muted">
        Each profile is one company’s payroll service: its own settings, sign-in and saved employees.
      </p>
      {list === undefined ? (
        <p>Reading the profiles…</p>
      ) : (
        <ul className="profile-rows" aria-label="Your profiles">
          {list.profiles.map((profile) => (
            <ProfileRow
              key={profile.id}
              profile={profile}
              list={list}
              mode={mode?.id === profile.id ? mode.kind : undefined}
              onMode={(kind) => {
                setNotice(undefined)
                setMode(kind === undefined ? undefined : { id: profile.id, kind })
              }}
              profiles={profiles}
              onDone={done}
            />
          ))}
        </ul>
      )}
      {list !== undefined && <NewProfileForm list={list} profiles={profiles} onCreated={done} />}
      <p className="profiles-notice" role="status">
        {notice}
      </p>
    </ModalDialog>
  )
}

interface ProfileRowProps {
  readonly profile: ProfileSummary
  readonly list: ProfileList
  readonly mode: 'rename' | 'delete' | undefined
  readonly onMode: (mode: 'rename' | 'delete' | undefined) => void
  readonly profiles: ProfilesController
  readonly onDone: (message: string) => void
}

function ProfileRow({ profile, list, mode, onMode, profiles, onDone }: ProfileRowProps) {
  const active = profile.id === list.activeId
  // Created by the machine policy: neither renamed nor deleted (main refuses both too).
  const managed = profile.managedByPolicy === true
  const renameRef = useRef<HTMLButtonElement>(null)
  const deleteRef = useRef<HTMLButtonElement>(null)
  const reasonId = useId()
  const lastMode = useRef<'rename' | 'delete'>(undefined)

  // Back to the button that opened a rename or a confirmation once it is over, so the keyboard keeps its place.
  // A layout effect: in the same commit that removes the rename field, so focus never rests on the page between.
  useLayoutEffect(() => {
    if (mode !== undefined) {
      lastMode.current = mode
    } else if (lastMode.current !== undefined) {
      ;(lastMode.current === 'delete' ? deleteRef : renameRef).current?.focus()
      lastMode.current = undefined
    }
  }, [mode])

  return (
    <li className={`profile-row${active ? ' profile-row-active' : ''}`}>
      <div className="profile-row-facts">
        <span className="profile-row-name">{profile.name}</span>
        {active && <span className="profile-active-tag">Current</span>}
        <span className={`env-badge env-${profile.environment}`}>
          {environmentLabel(profile.environment)}
        </span>
        <span className="muted">
          {profile.tenantId === '' ? (
            'No tenant'
          ) : (
            <>
              Tenant <bdi>{profile.tenantId}</bdi>
            </>
          )}
        </span>
        <span className="muted">{savedText(profile)}</span>
        {managed && <span className="policy-locked">{POLICY_LOCKED_LABEL}</span>}
      </div>
      {mode === 'rename' ? (
        <RenameForm profile={profile} list={list} profiles={profiles} onMode={onMode} onDone={onDone} />
      ) : mode === 'delete' ? (
        <DeleteConfirmation profile={profile} profiles={profiles} onMode={onMode} onDone={onDone} />
      ) : (
        <div className="profile-row-actions">
          {!managed && (
            <button
              type="button"
              ref={renameRef}
              aria-label={`Rename ${profile.name}`}
              onClick={() => onMode('rename')}
            >
              Rename
            </button>
          )}
          {!active && (
            <button
              type="button"
              aria-label={`Switch to ${profile.name}`}
              onClick={() => profiles.switchTo(profile.id)}
            >
              Switch to
            </button>
          )}
          {!managed && (
            <button
              type="button"
              ref={deleteRef}
              className="danger"
              aria-label={`Delete ${profile.name}…`}
              disabled={active}
              aria-describedby={active ? reasonId : undefined}
              onClick={() => onMode('delete')}
            >
              Delete…
            </button>
          )}
          {profile.setAside && (
            <button
              type="button"
              onClick={() =>
                void profiles
                  .restoreSetAside(profile.id)
                  .then((problem) =>
                    onDone(problem ?? `Restored the employees set aside in ${profile.name}.`),
                  )
              }
            >
              {restoreLabel(profile.setAside)}
            </button>
          )}
          {active && !managed && (
            <span id={reasonId} className="muted profile-row-reason">
              Switch to another profile to delete this one.
            </span>
          )}
        </div>
      )}
    </li>
  )
}

interface RenameFormProps {
  readonly profile: ProfileSummary
  readonly list: ProfileList
  readonly profiles: ProfilesController
  readonly onMode: (mode: undefined) => void
  readonly onDone: (message: string) => void
}

function RenameForm({ profile, list, profiles, onMode, onDone }: RenameFormProps) {
  const inputId = useId()
  const errorId = useId()
  const [draft, setDraft] = useState(profile.name)
  const [problem, setProblem] = useState<string>()
  const [saving, setSaving] = useState(false)

  const submit = (event: FormEvent): void => {
    event.preventDefault()
    const name = normalizeProfileName(draft)
    // The rule main applies, said before asking; main's answer is shown too if it still refuses.
    const local = profileNameProblem(
      name,
      list.profiles.filter((other) => other.id !== profile.id).map((other) => other.name),
    )
    if (local !== undefined) {
      setProblem(local)
      return
    }
    if (name === profile.name) {
      onMode(undefined)
      return
    }
    if (saving) return
    setSaving(true)
    void profiles.rename(profile.id, name).then((refused) => {
      setSaving(false)
      if (refused !== undefined) setProblem(refused)
      else onDone(`Renamed “${profile.name}” to “${name}”.`)
    })
  }

  return (
    <form className="profile-rename" onSubmit={submit} noValidate>
      <label htmlFor={inputId}>New name for {profile.name}</label>
      <input
        id={inputId}
        value={draft}
        autoFocus
        spellCheck={false}
        aria-invalid={problem !== undefined}
        aria-describedby={problem === undefined ? undefined : errorId}
        onChange={(event) => {
          setDraft(event.target.value)
          setProblem(undefined)
        }}
        onKeyDown={(event) => {
          // Esc leaves the rename, not the whole dialog.
          if (event.key === 'Escape') {
            event.preventDefault()
            onMode(undefined)
          }
        }}
      />
      <button type="submit" className="primary">
        Save name
      </button>
      <button type="button" onClick={() => onMode(undefined)}>
        Cancel
      </button>
      {problem !== undefined && (
        <p id={errorId} className="field-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  )
}

interface DeleteConfirmationProps {
  readonly profile: ProfileSummary
  readonly profiles: ProfilesController
  readonly onMode: (mode: undefined) => void
  readonly onDone: (message: string) => void
}

function DeleteConfirmation({ profile, profiles, onMode, onDone }: DeleteConfirmationProps) {
  const textId = useId()
  const keepRef = useRef<HTMLButtonElement>(null)
  const [refused, setRefused] = useState<string>()
  const [deleting, setDeleting] = useState(false)
  useEffect(() => keepRef.current?.focus(), [])

  const confirm = (): void => {
    if (deleting) return
    setDeleting(true)
    void profiles.remove(profile.id).then((problem) => {
      setDeleting(false)
      if (problem !== undefined) setRefused(problem)
      else onDone(`Deleted “${profile.name}”, with its settings, saved employees and sign-in.`)
    })
  }

  return (
    <div className="profile-delete" role="group" aria-labelledby={textId}>
      <p id={textId}>
        <strong>Delete “{profile.name}”?</strong> {losses(profile)} The payroll service itself is not changed,
        and this cannot be undone.
      </p>
      {refused !== undefined && (
        <p className="field-error" role="alert">
          {refused}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" ref={keepRef} onClick={() => onMode(undefined)}>
          Keep it
        </button>
        <button type="button" className="danger" onClick={confirm}>
          Delete {profile.name}
        </button>
      </div>
    </div>
  )
}

/** Exactly what deleting a profile removes from this computer. */
function losses(profile: ProfileSummary): string {
  const count = profile.employeeCount
  if (count === 0)
    return 'This removes its settings and its sign-in from this computer (it has no saved employees).'
  const employees =
    count === undefined ? 'its saved employees' : `its ${plural(count, 'saved employee', 'saved employees')}`
  return `This removes its settings, ${employees} and its sign-in from this computer.`
}

function savedText(profile: ProfileSummary): string {
  if (profile.employeeCount === undefined) return 'Saved employees could not be counted'
  if (profile.employeeCount === 0) return 'No saved employees'
  return plural(profile.employeeCount, 'saved employee', 'saved employees')
}

interface NewProfileFormProps {
  readonly list: ProfileList
  readonly profiles: ProfilesController
  readonly onCreated: (message: string) => void
}

/** A new profile: the clerk names it and says its environment, so a Production client never starts as Demo. */
function NewProfileForm({ list, profiles, onCreated }: NewProfileFormProps) {
  const headingId = useId()
  const nameId = useId()
  const nameErrorId = useId()
  const environmentErrorId = useId()
  const [name, setName] = useState('')
  const [environment, setEnvironment] = useState<Environment>()
  const [nameProblem, setNameProblem] = useState<string>()
  const [environmentProblem, setEnvironmentProblem] = useState<string>()
  const [saving, setSaving] = useState(false)

  const submit = (event: FormEvent): void => {
    event.preventDefault()
    const normalized = normalizeProfileName(name)
    const problem = profileNameProblem(
      normalized,
      list.profiles.map((profile) => profile.name),
    )
    setNameProblem(problem)
    setEnvironmentProblem(
      environment === undefined ? 'Choose the environment this profile works in.' : undefined,
    )
    if (problem !== undefined || environment === undefined || saving) return
    setSaving(true)
    void profiles.create(normalized, environment).then((refused) => {
      setSaving(false)
      if (refused !== undefined) {
        setNameProblem(refused)
        return
      }
      setName('')
      setEnvironment(undefined)
      // useProfiles switches to it (this dialog closes with the profile it was opened in).
      onCreated(
        environment === 'demo'
          ? `Created “${normalized}” (Demo). Switching to it…`
          : `Created “${normalized}” (${environmentLabel(environment)}). Switching to it to enter its service address and client ID…`,
      )
    })
  }

  return (
    <form className="profile-create" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId}>New profile</h3>
      <div className="field">
        <label htmlFor={nameId}>Name</label>
        <input
          id={nameId}
          value={name}
          placeholder="Client company"
          spellCheck={false}
          aria-invalid={nameProblem !== undefined}
          aria-describedby={nameProblem === undefined ? undefined : nameErrorId}
          onChange={(event) => {
            setName(event.target.value)
            setNameProblem(undefined)
          }}
        />
        {nameProblem !== undefined && (
          <p id={nameErrorId} className="field-error" role="alert">
            {nameProblem}
          </p>
        )}
      </div>
      <fieldset
        className="profile-create-environment"
        aria-invalid={environmentProblem !== undefined}
        aria-describedby={environmentProblem === undefined ? undefined : environmentErrorId}
      >
        <legend>Environment</legend>
        {ENVIRONMENTS.map((each) => (
          <label key={each} className="radio">
            <input
              type="radio"
              name="new-profile-environment"
              value={each}
              checked={environment === each}
              onChange={() => {
                setEnvironment(each)
                setEnvironmentProblem(undefined)
              }}
            />
            <span>{environmentLabel(each)}</span>
          </label>
        ))}
        {environmentProblem !== undefined && (
          <p id={environmentErrorId} className="field-error" role="alert">
            {environmentProblem}
          </p>
        )}
      </fieldset>
      <div className="dialog-actions">
        <button type="submit" className="primary">
          Create profile
        </button>
      </div>
    </form>
  )
}

/**
 * "Restore the Demo employees set aside on 27.11." (de-DE; "on 11/27" in en-US): whose they were and when
 * (decision 039), the day in the clerk's regional formats.
 */
export function restoreLabel(setAside: NonNullable<ProfileSummary['setAside']>): string {
  return `Restore the ${setAsideWhose(setAside)}employees set aside on ${restoreDay(setAside)}`
}

/** "Demo " when the set-aside employees came from an environment the app knows, else nothing. */
export function setAsideWhose(setAside: NonNullable<ProfileSummary['setAside']>): string {
  const env = setAside.environment
  return env === 'demo' || env === 'staging' || env === 'production' ? `${environmentLabel(env)} ` : ''
}

/** The day employees were set aside, in the clerk's regional formats ("27.11.", "11/27"). */
export function restoreDay(setAside: NonNullable<ProfileSummary['setAside']>): string {
  return formatDayMonth(new Date(setAside.setAsideAt), displayLocale())
}
