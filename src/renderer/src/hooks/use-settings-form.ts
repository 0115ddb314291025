import { useState, type FormEvent } from 'react'
import type { Settings } from '../../../shared/settings-schema'
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
  change<K extends SettingsFormField>(field: K, value: SettingsForm[K]): void
  submit(event: FormEvent): void
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
): SettingsFormController {
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
    setSaving(true)
    onSave(patch)
      .then((view) => {
        setForm(toForm(view.settings))
        setOutcome({ tone: 'ok', text: 'Settings saved.' })
      })
      .catch((error: unknown) => {
        // Main checks again (it is the authority); show its words under the fields it names.
        if (error instanceof ClientError) setErrors(toFormErrors(error.fieldErrors))
        setOutcome({ tone: 'error', text: errorMessage(error) })
      })
      .finally(() => setSaving(false))
  }

  const unsaved = JSON.stringify(withHiddenFieldsSaved(form, saved)) !== JSON.stringify(toForm(saved))
  return { form, errors, outcome, saving, unsaved, change, submit }
}
