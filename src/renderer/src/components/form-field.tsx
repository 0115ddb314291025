import type { ReactNode } from 'react'

interface FormFieldProps {
  readonly id: string
  readonly label: string
  readonly error: string | undefined
  readonly hint?: ReactNode
  readonly children: (describedBy: string | undefined, invalid: boolean) => ReactNode
}

/** A labelled control with its hint and its validation message, tied together for screen readers. */
export function FormField({ id, label, error, hint, children }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined
  return (
    <div className={`form-field${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(describedBy, error !== undefined)}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  )
}
