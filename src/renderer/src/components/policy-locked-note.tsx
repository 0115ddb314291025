import { POLICY_LOCKED_LABEL } from '../../../shared/policy-view'

/**
 * "Set by your organisation", beside a field the machine policy locks; its id (`policyLockedId`) is in the
 * control's `aria-describedby` (fieldDescribedBy), so a screen reader says why the field cannot be changed.
 */
export function PolicyLockedNote({ id }: { readonly id: string }) {
  return (
    <span id={policyLockedId(id)} className="policy-locked">
      {POLICY_LOCKED_LABEL}
    </span>
  )
}

/** The note's id for a control's id. */
export function policyLockedId(id: string): string {
  return `${id}-locked`
}
