import type { ReactNode } from 'react'
import { FieldMessages, fieldDescribedBy } from './field-messages'
import { PolicyLockedNote } from './policy-locked-note'

interface CheckboxFieldProps {
  readonly id: string
  readonly label: string
  readonly checked: boolean
  readonly error: string | undefined
  readonly hint?: ReactNode
  /** The machine policy sets this field: "Set by your organisation" beside it, the box disabled. */
  readonly locked?: boolean
  readonly onChange: (checked: boolean) => void
}

/**
 * A labelled checkbox with its hint and validation message, tied together for screen readers as FormField does
 * for text; the box comes before its label, where a clerk looks for it.
 */
export function CheckboxField({
  id,
  label,
  checked,
  error,
  hint,
  locked = false,
  onChange,
}: CheckboxFieldProps) {
  const describedBy = fieldDescribedBy(id, error, hint, locked)
  return (
    <div className={`form-field checkbox-field${error ? ' invalid' : ''}${locked ? ' locked' : ''}`}>
      <label htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          disabled={locked}
          aria-invalid={error !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.checked)}
        />
        {label}
      </label>
      {locked && <PolicyLockedNote id={id} />}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  )
}
