import type { ReactNode } from 'react'
import { FieldMessages, fieldDescribedBy } from './field-messages'
import { PolicyLockedNote } from './policy-locked-note'

interface FormFieldProps {
  readonly id: string
  readonly label: string
  readonly error: string | undefined
  readonly hint?: ReactNode
  /** The machine policy sets this field: "Set by your organisation" beside its label, the control disabled. */
  readonly locked?: boolean
  /** The control, given its `aria-describedby`, whether it is invalid, and whether it is to be disabled. */
  readonly children: (describedBy: string | undefined, invalid: boolean, locked: boolean) => ReactNode
}

/** A labelled control with its hint and its validation message, tied together for screen readers. */
export function FormField({ id, label, error, hint, locked = false, children }: FormFieldProps) {
  const describedBy = fieldDescribedBy(id, error, hint, locked)
  return (
    <div className={`form-field${error ? ' invalid' : ''}${locked ? ' locked' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {locked && <PolicyLockedNote id={id} />}
      {children(describedBy, error !== undefined, locked)}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  )
}
