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

/**
 * The settings form, from the saved settings: the fields as typed, checked on submit (the focus goes to the first
 * field with a problem), and only what changed sent to main (`onSave`), whose answer the form then shows.
 */
export function useSettingsForm(
  saved: Settings,
  onSave: SettingsController['update'],
  savedEmployees = 0,
): SettingsFormController {
  const [held, setHeld] = useState<{ patch: SettingsPatch; environment: Environment } | undefined>()
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
    const patch = toPatch(checked.settings, saved)
    if (Object.keys(patch).length === 0) {
      setOutcome({ tone: 'ok', text: 'Nothing to save: the settings are unchanged.' })
      return
    }
    if (savedEmployees > 0 && identityChanges(saved, checked.settings)) {
      setHeld({ patch, environment: checked.settings.environment })
      return
    }
    save(patch, undefined)
  }

  const save = (patch: SettingsPatch, identityChange: IdentityChoice | undefined): void => {
    setSaving(true)
    onSave(patch, identityChange)
      .then((view) => {
        setForm(toForm(view.settings))
        setOutcome({
          tone: 'ok',
          text:
            identityChange === 'set-aside'
              ? 'Settings saved. The saved employees were set aside (Manage profiles can restore them until the next sync).'
              : identityChange === 'new-profile'
                ? 'Settings saved in a new profile, now in use; the previous profile is unchanged.'
                : 'Settings saved.',
        })
      })
      .catch((error: unknown) => {
        // Main checks again (it is the authority); show its words under the fields it names.
        if (error instanceof ClientError) setErrors(toFormErrors(error.fieldErrors))
        setOutcome({ tone: 'error', text: errorMessage(error) })
      })
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
    save(pending.patch, choice)
  }
  const identityPending =
    held === undefined ? undefined : { environment: held.environment, employeeCount: savedEmployees }
  return { form, errors, outcome, saving, unsaved, identityPending, change, submit, resolveIdentity }
}
