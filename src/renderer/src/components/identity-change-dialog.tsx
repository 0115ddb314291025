import type { Environment } from '../../../shared/settings-rules'
import {
  newProfileChoiceLabel,
  setAsideChoiceLabel,
  type IdentityChoice,
} from '../../../shared/source-identity'
import { displayLocale } from '../format/display-locale'
import { ModalDialog } from './modal-dialog'

interface IdentityChangeDialogProps {
  /** The environment the change names. */
  readonly environment: Environment
  /** The profile's saved employees, which must not be shown under the new source's name. */
  readonly employeeCount: number
  readonly onChoose: (choice: IdentityChoice | undefined) => void
}

/**
 * The confirmation a change of the profile's environment, address or tenant asks while it holds saved employees
 * (decision 039): each button names what happens, and Cancel (Escape) saves nothing.
 */
export function IdentityChangeDialog({ environment, employeeCount, onChoose }: IdentityChangeDialogProps) {
  return (
    <ModalDialog
      title="These saved employees came from elsewhere"
      className="identity-change-dialog"
      onClose={() => onChoose(undefined)}
    >
      <p>
        This profile’s saved employees were read from where it pointed until now. They must not be shown as
        the new source’s. Choose how to make the change:
      </p>
      <div className="form-actions identity-choices">
        <button type="button" className="primary" onClick={() => onChoose('new-profile')}>
          {newProfileChoiceLabel(environment)}
        </button>
        <button type="button" onClick={() => onChoose('set-aside')}>
          {setAsideChoiceLabel(employeeCount, displayLocale())}
        </button>
        <button type="button" onClick={() => onChoose(undefined)}>
          Cancel
        </button>
      </div>
      <p className="muted">
        A new profile keeps this one as it is. Changing this profile shows no employees until it syncs from
        the new source; the set-aside employees can be restored from Manage profiles until then.
      </p>
    </ModalDialog>
  )
}
