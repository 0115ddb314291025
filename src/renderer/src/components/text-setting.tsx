import type { SettingsFormController } from '../hooks/use-settings-form'
import type {
  LockableFormField,
  SettingsForm,
  SettingsFormErrors,
  SettingsFormField,
} from '../settings/settings-form'
import { FormField } from './form-field'

interface TextSettingProps {
  readonly id: string
  readonly label: string
  readonly value: string
  readonly error: string | undefined
  readonly hint?: string | undefined
  /** 'number' is typed as text with a numeric keyboard: the form parses it when saved. */
  readonly type?: 'text' | 'url' | 'number'
  /** The machine policy sets it: disabled, "Set by your organisation" beside its label. */
  readonly locked: boolean
  readonly onChange: (value: string) => void
}

/** A setting typed as text: its labelled input, hint and message (FormField), disabled when the policy sets it. */
export function TextSetting({
  id,
  label,
  value,
  error,
  hint,
  type = 'text',
  locked,
  onChange,
}: TextSettingProps) {
  return (
    <FormField id={id} label={label} error={error} hint={hint} locked={locked}>
      {(describedBy, invalid, disabled) => (
        <input
          id={id}
          type={type === 'number' ? 'text' : type}
          inputMode={type === 'number' ? 'numeric' : undefined}
          value={value}
          disabled={disabled}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          spellCheck={false}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </FormField>
  )
}

/** Fields of the settings form typed as text (every one but the checkboxes). */
export type TextFormField = {
  [K in SettingsFormField]: SettingsForm[K] extends string ? K : never
}[SettingsFormField]

/** What ties a field's TextSetting to the settings form: its value, message, lock and change. */
export interface SettingsFormBinding {
  readonly form: SettingsForm
  readonly errors: SettingsFormErrors
  readonly locked: ReadonlySet<LockableFormField>
  readonly change: SettingsFormController['change']
}

/** The settings form's `field` as a TextSetting (id `setting-<field>`), for every section of Settings. */
export function FormTextSetting({
  binding,
  field,
  label,
  hint,
  type,
}: {
  readonly binding: SettingsFormBinding
  readonly field: TextFormField
  readonly label: string
  readonly hint?: string
  readonly type?: 'text' | 'url' | 'number'
}) {
  return (
    <TextSetting
      id={`setting-${field}`}
      label={label}
      hint={hint}
      {...(type === undefined ? {} : { type })}
      value={binding.form[field]}
      error={binding.errors[field]}
      locked={binding.locked.has(field)}
      onChange={(value) => binding.change(field, value)}
    />
  )
}
