import { useEffect, useId, useRef, useState } from 'react'
import {
  connectionReportText,
  connectionResultText,
  stepTime,
  type ConnectionReport,
  type ConnectionStep,
  type ConnectionStepState,
} from '../../../shared/connection-report'
import { formatDateTime } from '../format/relative-time'
import { useConnectionCheck, type ConnectionCheckState } from '../hooks/use-connection-check'
import { NOTICE_MS } from '../hooks/use-row-actions'

/** Each step's outcome as a mark and a word, so it never rests on colour alone (the CLI's marks). */
const STATE_WORDS: Readonly<Record<ConnectionStepState, { mark: string; word: string }>> = {
  ok: { mark: '✓', word: 'Passed' },
  failed: { mark: '✗', word: 'Failed' },
  skipped: { mark: '–', word: 'Skipped' },
}

/** The overall result line, read out politely when the check ends (and "Testing…" while it runs). */
export function checkResultText(state: ConnectionCheckState): string {
  if (state.status === 'running') return 'Testing…'
  if (state.status !== 'done') return ''
  return connectionResultText(state.report, 'below')
}

/**
 * "Test connection": runs main's check of the saved settings (before or after sign-in) and shows its report,
 * step by step, with "Copy report" for IT. While it runs the button is disabled and "Testing…" is announced;
 * the focus, which the disabled button lost, comes back to it when the check ends.
 */
export function ConnectionCheck({ unsaved }: { readonly unsaved: boolean }) {
  const { state, run } = useConnectionCheck()
  const buttonRef = useRef<HTMLButtonElement>(null)
  const hadFocus = useRef(false)
  const running = state.status === 'running'
  useEffect(() => {
    if (running || !hadFocus.current) return
    hadFocus.current = false
    // Only when the focus is nowhere else (the disabled button let it go to the page).
    const active = document.activeElement
    if (active === null || active === document.body || active === buttonRef.current)
      buttonRef.current?.focus()
  }, [running])
  const start = (): void => {
    hadFocus.current = document.activeElement === buttonRef.current
    run()
  }
  return (
    <div className="connection-check">
      <div className="inline-controls">
        <button
          type="button"
          ref={buttonRef}
          onClick={start}
          disabled={running}
          aria-describedby="connection-check-hint"
        >
          Test connection
        </button>
      </div>
      <p id="connection-check-hint" className="field-hint">
        Tries the way to the payroll service with the saved settings, step by step, signed in or not.
        {unsaved ? ' Save your changes first to test them.' : ''}
      </p>
      <p className="check-result" role="status">
        {checkResultText(state)}
      </p>
      {state.status === 'failed' && (
        <p className="message message-error" role="alert">
          {state.message}
        </p>
      )}
      {state.status === 'done' && <ConnectionReportView report={state.report} />}
    </div>
  )
}

/** The report: where it was run against, each step with its outcome, time and message, and "Copy report". */
export function ConnectionReportView({ report }: { readonly report: ConnectionReport }) {
  const titleId = useId()
  return (
    <section className="connection-report" aria-labelledby={titleId}>
      <h2 id={titleId}>Connection report</h2>
      <p className="muted">
        <bdi>{report.baseUrl}</bdi>
        {report.profile === undefined ? '' : `, profile ${report.profile}`}, tested{' '}
        <time dateTime={report.startedAt}>{formatDateTime(report.startedAt)}</time>
      </p>
      <ol className="check-steps">
        {report.steps.map((step, index) => (
          <CheckStep key={`${step.id}-${index}`} step={step} />
        ))}
      </ol>
      <CopyReport report={report} />
    </section>
  )
}

function CheckStep({ step }: { readonly step: ConnectionStep }) {
  const { mark, word } = STATE_WORDS[step.state]
  return (
    <li className={`check-step check-${step.state}`}>
      <span className="check-state">
        <span aria-hidden="true">{mark}</span> {word}
      </span>
      <span className="check-label">{step.label}</span>
      {step.state === 'skipped' ? null : <span className="check-time">{stepTime(step.ms)}</span>}
      <p className="check-message">{step.message}</p>
      {step.certificates !== undefined && step.certificates.length > 0 && (
        <ul className="check-chain" aria-label={`Certificates seen: ${step.label}`}>
          {step.certificates.map((certificate, index) => (
            <li key={`${certificate.fingerprint256}-${index}`}>
              <bdi>{certificate.subject}</bdi>, issued by <bdi>{certificate.issuer}</bdi>
              <span className="check-certificate-detail">
                Valid {certificate.validFrom} to {certificate.validTo}; SHA-256 {certificate.fingerprint256}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

/** "Copy report": the report as text (the CLI's own) on the clipboard, and a line saying it was copied. */
function CopyReport({ report }: { readonly report: ConnectionReport }) {
  const [notice, setNotice] = useState('')
  useEffect(() => {
    if (notice === '') return
    const timer = window.setTimeout(() => setNotice(''), NOTICE_MS)
    return () => window.clearTimeout(timer)
  }, [notice])
  const copy = (): void => {
    // As the table copies rows; a clipboard the page may not use fails the promise, and says so.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(connectionReportText(report)))
      .then(
        () => setNotice('Report copied. Paste it into an e-mail or ticket for IT.'),
        () => setNotice('RosterDesk could not copy to the clipboard. Try again.'),
      )
  }
  return (
    <div className="inline-controls copy-report">
      <button type="button" onClick={copy}>
        Copy report
      </button>
      <span className="copy-notice" role="status">
        {notice}
      </span>
    </div>
  )
}
