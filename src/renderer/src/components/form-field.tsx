import type { ReactNode } from 'react'
import { FieldMessages, fieldDescribedBy } from './field-messages'

interface FormFieldProps {
  readonly id: string
  readonly label: string
  readonly error: string | undefined
  readonly hint?: ReactNode
  readonly children: (describedBy: string | undefined, invalid: boolean) => ReactNode
}

/** A labelled control with its hint and its validation message, tied together for screen readers. */
export function FormField({ id, label, error, hint, children }: FormFieldProps) {
  const describedBy = fieldDescribedBy(id, error, hint)
  return (
    <div className={`form-field${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(describedBy, error !== undefined)}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  )
}
