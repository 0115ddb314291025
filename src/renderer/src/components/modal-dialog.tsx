import { useId, useRef, type ReactNode, type RefObject } from 'react'
import { useModalDialog } from '../hooks/use-modal-dialog'

/** The row the heading stands in, with what it holds besides the heading. */
interface ModalDialogHead {
  readonly className: string
  /** Controls after the heading (a choice, or a text Close button). */
  readonly controls?: ReactNode
  /** The accessible name of the × button that ends the row; without it the row has none. */
  readonly closeLabel?: string
}

interface ModalDialogProps {
  readonly title: string
  /** The dialog's own class, which sizes and places it. */
  readonly className: string
  readonly onClose: () => void
  /** Without it the heading stands alone and the dialog's own buttons close it. */
  readonly head?: ModalDialogHead
  readonly describedBy?: string
  /** For a dialog that moves the focus itself once its content arrives. */
  readonly dialogRef?: RefObject<HTMLDivElement | null>
  readonly children: ReactNode
}

/**
 * Every modal dialog's frame: the dimming backdrop, the `role="dialog"` element named by its heading, and the
 * keyboard manners of `useModalDialog`. Its effects run before those of the dialog that renders it, so the opener
 * is remembered before that dialog moves the focus on to its content.
 */
export function ModalDialog({
  title,
  className,
  onClose,
  head,
  describedBy,
  dialogRef,
  children,
}: ModalDialogProps) {
  const titleId = useId()
  const ownRef = useRef<HTMLDivElement>(null)
  const ref = dialogRef ?? ownRef
  const onKeyDown = useModalDialog(ref, onClose)
  const heading = <h2 id={titleId}>{title}</h2>
  return (
    <div className="modal-backdrop">
      <div
        className={`modal-surface ${className}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        ref={ref}
        onKeyDown={onKeyDown}
      >
        {head === undefined ? (
          heading
        ) : (
          <div className={head.className}>
            {heading}
            {head.controls}
            {head.closeLabel !== undefined && (
              <button type="button" className="icon-button" aria-label={head.closeLabel} onClick={onClose}>
                ×
              </button>
            )}
          </div>
        )}
        {children}
      </div>
    </div>
  )
}
