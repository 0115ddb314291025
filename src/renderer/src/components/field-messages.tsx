import type { ReactNode } from 'react'
import { policyLockedId } from './policy-locked-note'

interface FieldMessagesProps {
  /** The control's id: the messages' ids are derived from it. */
  readonly id: string
  readonly error: string | undefined
  readonly hint?: ReactNode
}

/**
 * A control's `aria-describedby`: the ids of its "Set by your organisation" note (when `locked`), its error and its
 * hint, each while shown (none: undefined).
 */
export function fieldDescribedBy(
  id: string,
  error: string | undefined,
  hint?: ReactNode,
  locked = false,
): string | undefined {
  const lockedId = locked ? policyLockedId(id) : undefined
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  return [lockedId, errorId, hintId].filter(Boolean).join(' ') || undefined
}

/** A control's validation message, then its hint, with the ids `fieldDescribedBy` points the control at. */
export function FieldMessages({ id, error, hint }: FieldMessagesProps) {
  return (
    <>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </>
  )
}
