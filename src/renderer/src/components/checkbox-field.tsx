import type { ReactNode } from 'react'
import { FieldMessages, fieldDescribedBy } from './field-messages'

interface CheckboxFieldProps {
  readonly id: string
  readonly label: string
  readonly checked: boolean
  readonly error: string | undefined
  readonly hint?: ReactNode
  readonly onChange: (checked: boolean) => void
}

/**
 * A labelled checkbox with its hint and validation message, tied together for screen readers as FormField does
 * for text; the box comes before its label, where a clerk looks for it.
 */
export function CheckboxField({ id, label, checked, error, hint, onChange }: CheckboxFieldProps) {
  const describedBy = fieldDescribedBy(id, error, hint)
  return (
    <div className={`form-field checkbox-field${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-invalid={error !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.checked)}
        />
        {label}
      </label>
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  )
}
