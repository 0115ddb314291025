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
