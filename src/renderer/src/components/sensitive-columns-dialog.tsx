import type { SensitiveColumnsAnswer } from '../../../shared/policy-view'
import { sensitiveColumnsQuestion } from '../../../shared/policy-view'
import { ModalDialog } from './modal-dialog'

interface SensitiveColumnsDialogProps {
  /** The sensitive columns the export would write, by label, in its order. */
  readonly labels: readonly string[]
  /** The clerk's answer; undefined: Cancel, Escape or the backdrop (no export). */
  readonly onAnswer: (answer: SensitiveColumnsAnswer | undefined) => void
}

/**
 * What an export asks first under the machine policy's `exports.sensitiveColumns: "ask"` (issue 34, point 2),
 * naming its sensitive columns: include them, leave them out, or cancel. The focus starts on "Leave out", so Enter
 * pressed by habit sends no sensitive data. The core writes what the answer allows (`allowedExportColumns`).
 */
export function SensitiveColumnsDialog({ labels, onAnswer }: SensitiveColumnsDialogProps) {
  return (
    <ModalDialog
      title="Include sensitive columns?"
      className="sensitive-columns-dialog"
      onClose={() => onAnswer(undefined)}
    >
      <p>{sensitiveColumnsQuestion(labels)}</p>
      <div className="dialog-actions">
        <button type="button" onClick={() => onAnswer('include')}>
          Include
        </button>
        <button type="button" data-autofocus onClick={() => onAnswer('exclude')}>
          Leave out
        </button>
        <button type="button" onClick={() => onAnswer(undefined)}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  )
}
