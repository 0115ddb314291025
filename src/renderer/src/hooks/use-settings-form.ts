import { useState, type FormEvent } from 'react'
import type { Environment } from '../../../shared/settings-rules'
import type { Settings, SettingsPatch } from '../../../shared/settings-schema'
import { identityChanges, type IdentityChoice } from '../../../shared/source-identity'
import { ClientError, errorMessage } from '../api/client'
import {
  checkForm,
  toForm,
  toFormErrors,
  toPatch,
  withHiddenFieldsSaved,
  type SettingsForm,
  type SettingsFormErrors,
  type SettingsFormField,
} from '../settings/settings-form'
import type { SettingsController } from './use-settings'

/** What the last save said, above the form. */
export type SettingsOutcome = { tone: 'ok' | 'error'; text: string } | undefined

/** The settings form's state; see useSettingsForm. */
export interface SettingsFormController {
  readonly form: SettingsForm
  /** Each field's message, from the form's own check or from main's. */
  readonly errors: SettingsFormErrors
  readonly outcome: SettingsOutcome
  /** A save is under way (the Save button is disabled meanwhile). */
  readonly saving: boolean
  /** The form differs from the saved settings (what "Test connection" tries are the saved ones). */
  readonly unsaved: boolean
  /** A field changed: its message and the last outcome are cleared. */
  /**
   * A save that would change the profile's environment, address or tenant while it holds saved employees, held
   * until the clerk chooses (decision 039): the environment it names and the employees that would be set aside.
   */
  readonly identityPending: { readonly environment: Environment; readonly employeeCount: number } | undefined
  /** The client secret as typed, never read back: Save stores it (empty: the stored one is kept). */
  readonly secret: string
  /** Why the last Save could not store the secret. */
  readonly secretError: string | undefined
  changeSecret(secret: string): void
  change<K extends SettingsFormField>(field: K, value: SettingsForm[K]): void
  submit(event: FormEvent): void
  /** The clerk's answer to the confirmation: a choice saves the held change that way; undefined cancels it. */
  resolveIdentity(choice: IdentityChoice | undefined): void
}

/** The fields in the order the form shows them. */
const FIELD_ORDER: readonly SettingsFormField[] = [
  'environment',
  'stagingUrl',
  'productionUrl',
  'tenantId',
  'clientId',
  'redirectUri',
  'scopes',
  'pageSize',
  'concurrency',
  'trackedPayCycles',
  'syncActiveOnly',
  'staleAfterHours',
  'syncOnLaunch',
  'syncEveryHours',
  'proxyMode',
  'proxyUrl',
  'proxyBypass',
  'pacUrl',
  'extraCertificatesFile',
  'requestTimeoutSeconds',
  'syncDeadlineMinutes',
  'maxEmployees',
]

/** What a Save sends: the settings that changed (none: the secret only) and the secret typed, if any. */
interface Pending {
  readonly patch: SettingsPatch | undefined
  readonly secret: string | undefined
}

/**
 * The settings form, from the saved settings: the fields as typed, checked on submit (the focus goes to the first
 * field with a problem), and only what changed sent to main (`onSave`), whose answer the form then shows. A client
 * secret typed is stored by the same Save through its own channel (`onSaveSecret`, absent when the policy supplies
 * it), after the settings, so it is bound to the client ID and address just saved (bound-client-secret.ts).
 */
export function useSettingsForm(
  saved: Settings,
  onSave: SettingsController['update'],
  savedEmployees = 0,
  onSaveSecret?: SettingsController['setClientSecret'],
): SettingsFormController {
  const [held, setHeld] = useState<(Pending & { environment: Environment }) | undefined>()
  const [secret, setSecret] = useState('')
  const [secretError, setSecretError] = useState<string>()
  const [typed, setForm] = useState<SettingsForm>(() => toForm(saved))
  // The certificate file is never typed: it is what main saved ("Choose file…", "Remove", each saved at once).
  const form: SettingsForm = { ...typed, extraCertificatesFile: saved.extraCertificatesFile }
  const [errors, setErrors] = useState<SettingsFormErrors>({})
  const [outcome, setOutcome] = useState<SettingsOutcome>()
  const [saving, setSaving] = useState(false)

  const change = <K extends SettingsFormField>(field: K, value: SettingsForm[K]): void => {
    setForm((current) => ({ ...current, [field]: value }))
    setOutcome(undefined)
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }))
  }
  const changeSecret = (value: string): void => {
    setSecret(value)
    setOutcome(undefined)
    setSecretError(undefined)
  }

  const submit = (event: FormEvent): void => {
    event.preventDefault()
    const checked = checkForm(withHiddenFieldsSaved(form, saved))
    setErrors(checked.ok ? {} : checked.errors)
    if (!checked.ok) {
      setOutcome({ tone: 'error', text: 'Some settings need attention; see the messages below each field.' })
      // Take the clerk to the first problem, which may be below the fold at high zoom.
      const firstInvalid = FIELD_ORDER.find((field) => checked.errors[field] !== undefined)
      if (firstInvalid !== undefined) document.getElementById(`setting-${firstInvalid}`)?.focus()
      return
    }
    const changed = toPatch(checked.settings, saved)
    const patch = Object.keys(changed).length === 0 ? undefined : changed
    const typedSecret = onSaveSecret !== undefined && secret.trim() !== '' ? secret : undefined
    if (patch === undefined && typedSecret === undefined) {
      setOutcome({ tone: 'ok', text: 'Nothing to save: the settings are unchanged.' })
      return
    }
    if (patch !== undefined && savedEmployees > 0 && identityChanges(saved, checked.settings)) {
      setHeld({ patch, secret: typedSecret, environment: checked.settings.environment })
      return
    }
    save({ patch, secret: typedSecret }, undefined)
  }

  const save = (
    { patch, secret: typedSecret }: Pending,
    identityChange: IdentityChoice | undefined,
  ): void => {
    setSaving(true)
    const settingsSaved =
      patch === undefined
        ? Promise.resolve()
        : onSave(patch, identityChange).then(
            (view) => setForm(toForm(view.settings)),
            (error: unknown) => {
              // Main checks again (it is the authority); show its words under the fields it names.
              if (error instanceof ClientError) setErrors(toFormErrors(error.fieldErrors))
              setOutcome({ tone: 'error', text: errorMessage(error) })
              throw error
            },
          )
    settingsSaved
      .then(async () => {
        const said = patch === undefined ? undefined : savedText(identityChange)
        if (typedSecret === undefined || onSaveSecret === undefined) {
          if (said !== undefined) setOutcome({ tone: 'ok', text: said })
          return
        }
        try {
          await onSaveSecret(typedSecret)
          setSecret('')
          setOutcome({ tone: 'ok', text: said === undefined ? SECRET_SAVED : `${said} ${SECRET_SAVED}` })
        } catch (error) {
          const why = errorMessage(error)
          setSecretError(why)
          setOutcome({
            tone: 'error',
            text: `${said === undefined ? '' : `${said} `}The client secret was not saved: ${why}`,
          })
        }
      })
      .catch(() => undefined)
      .finally(() => setSaving(false))
  }

  const unsaved = JSON.stringify(withHiddenFieldsSaved(form, saved)) !== JSON.stringify(toForm(saved))
  const resolveIdentity = (choice: IdentityChoice | undefined): void => {
    const pending = held
    setHeld(undefined)
    if (pending === undefined) return
    if (choice === undefined) {
      setOutcome({ tone: 'ok', text: 'Not saved: the profile still reads from where it did.' })
      return
    }
    save(pending, choice)
  }
  const identityPending =
    held === undefined ? undefined : { environment: held.environment, employeeCount: savedEmployees }
  return {
    form,
    errors,
    outcome,
    saving,
    unsaved: unsaved || secret !== '',
    identityPending,
    secret,
    secretError,
    changeSecret,
    change,
    submit,
    resolveIdentity,
  }
}

const SECRET_SAVED = 'Client secret saved.'

/** What a save of the settings says, by how a change of the profile's source was made (decision 039). */
function savedText(identityChange: IdentityChoice | undefined): string {
  return identityChange === 'set-aside'
    ? 'Settings saved. The saved employees were set aside (Manage profiles can restore them until the next sync).'
    : identityChange === 'new-profile'
      ? 'Settings saved in a new profile, now in use; the previous profile is unchanged.'
      : 'Settings saved.'
}
