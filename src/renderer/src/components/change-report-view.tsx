import { Fragment, useCallback, useId, useState } from 'react'
import type { ChangeReport } from '../../../shared/domain/changes'
import { changeCounts } from '../format/change-text'
import { formatCount } from '../format/format-value'
import { ChangeReportDialog } from './change-report-dialog'

interface ChangeReportViewProps {
  readonly report: ChangeReport
  /** Changes when a sync replaced the saved employees. */
  readonly dataVersion: string
  /** Where that sync read ("Demo (sample data)", `rowSourceLabel`), said in the chip's description. */
  readonly source?: string
}

/**
 * What the last sync changed, at a glance in the sync bar: "First sync: N employees" after the first one (every
 * employee is new, which is not N changes), else its exact counts in words ("150 added, 90 removed, 300
 * changed"), which open the change report with its history.
 */
export function ChangeReportView({ report, dataVersion, source }: ChangeReportViewProps) {
  const [open, setOpen] = useState(false)
  const descriptionId = useId()
  // The dialog (useModalDialog) gives the focus back to this button when it closes.
  const close = useCallback((): void => setOpen(false), [])
  if (report.firstSync === true) {
    return <span className="change-report">First sync: {formatCount(report.added)} employees</span>
  }
  const total = report.added + report.removed + report.changed
  return (
    <span className="change-report">
      <button
        type="button"
        className="change-summary"
        aria-haspopup="dialog"
        aria-expanded={open}
        // Named by what it shows (WCAG 2.5.3: a speech user says what they see); the description says what it opens.
        aria-describedby={descriptionId}
        onClick={() => setOpen(true)}
      >
        {total === 0
          ? 'No changes in the last sync'
          : changeCounts(report).map((count, index) => (
              // The ", " between counts outside their spans, so it is part of the button's name.
              <Fragment key={count.kind}>
                {index > 0 ? ', ' : null}
                <span className={`count-${count.kind}`}>{count.text}</span>
              </Fragment>
            ))}
      </button>
      <span id={descriptionId} className="visually-hidden">
        Changes in the last sync{source === undefined ? '' : ` of ${source}`}. Opens the change report.
      </span>
      {open && <ChangeReportDialog dataVersion={dataVersion} onClose={close} />}
    </span>
  )
}
