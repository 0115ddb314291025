import type { ProfileList } from '../../../shared/domain/profiles'
import type { Environment } from '../../../shared/settings-rules'
import {
  identityChangeTitle,
  newProfileChoiceLabel,
  setAsideChoiceLabel,
  setAsideRename,
  type IdentityChoice,
  type RowSource,
} from '../../../shared/source-identity'
import { displayLocale } from '../format/display-locale'
import { plural } from '../format/format-value'
import { restoreDay, setAsideWhose } from './manage-profiles-dialog'
import { ModalDialog } from './modal-dialog'

interface IdentityChangeDialogProps {
  /** The environment the change names. */
  readonly environment: Environment
  /** Where the saved employees came from (their run's record, else the settings they were read by): the title names it. */
  readonly source: RowSource
  /** The profile's saved employees, which must not be shown under the new source's name. */
  readonly employeeCount: number
  /** The profiles: the active one's name (renamed if it names its old environment) and its set-aside copy. */
  readonly profiles?: ProfileList | undefined
  readonly onChoose: (choice: IdentityChoice | undefined) => void
}

/**
 * The confirmation a change of the profile's environment, address or tenant asks while it holds saved employees
 * (decision 039), its title naming where they came from ("…came from Demo (sample data)"): each button names what happens, and Cancel (Escape) saves nothing. Below them, what else
 * changing this profile does: a profile named after its old environment takes the new one's name (the core's rule,
 * `setAsideRename`), and a profile keeps one set-aside copy, so an earlier one is deleted.
 */
export function IdentityChangeDialog({
  environment,
  source,
  employeeCount,
  profiles,
  onChoose,
}: IdentityChangeDialogProps) {
  const active = profiles?.profiles.find((profile) => profile.id === profiles.activeId)
  const others =
    profiles?.profiles.filter((profile) => profile !== active).map((profile) => profile.name) ?? []
  // A profile the machine policy manages keeps its name (the core skips the rename), so none is promised.
  const renameTo =
    active === undefined || active.managedByPolicy === true
      ? undefined
      : setAsideRename(active.name, active.environment, environment, others)
  const earlier = active?.setAside
  return (
    <ModalDialog
      title={identityChangeTitle(source)}
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
        {renameTo !== undefined && active !== undefined ? (
          <>
            {' '}
            It also renames the profile “<bdi>{renameTo}</bdi>”, since “<bdi>{active.name}</bdi>” names the
            old source.
          </>
        ) : null}
      </p>
      {earlier !== undefined ? (
        <p className="identity-earlier-set-aside">
          A profile keeps one set-aside copy: changing this profile deletes the{' '}
          {plural(earlier.employeeCount, `${setAsideWhose(earlier)}employee`)} set aside on{' '}
          {restoreDay(earlier)}.
        </p>
      ) : null}
    </ModalDialog>
  )
}
