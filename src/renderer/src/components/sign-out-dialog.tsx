import { signOutDeletesQuestion, type SignOutDeletes } from '../../../shared/policy-view'
import { displayLocale } from '../format/display-locale'
import { ModalDialog } from './modal-dialog'

interface SignOutDialogProps {
  /** The active profile's name: whose saved employees go. */
  readonly profile: string
  /** Its saved employees and those it has set aside, which signing out deletes. */
  readonly deletes: SignOutDeletes
  /** true: sign out (and delete them); false: Cancel, Escape or the backdrop, nothing done. */
  readonly onAnswer: (signOut: boolean) => void
}

/**
 * What Sign out asks first when the machine policy deletes the profile's saved employees at sign-out
 * (`personalData.clearOnSignOut`, issue 33 point 8): how many go, whose, and why, with Sign out and Cancel. The focus
 * starts on Cancel, so Enter pressed by habit deletes nothing.
 */
export function SignOutDialog({ profile, deletes, onAnswer }: SignOutDialogProps) {
  return (
    <ModalDialog
      title={`Sign out of ${profile}?`}
      className="sign-out-dialog"
      onClose={() => onAnswer(false)}
    >
      <p>{signOutDeletesQuestion(deletes, profile, displayLocale())}</p>
      <div className="dialog-actions">
        <button type="button" className="danger" onClick={() => onAnswer(true)}>
          Sign out
        </button>
        <button type="button" data-autofocus onClick={() => onAnswer(false)}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  )
}
