import type { ConnectionReport, ConnectionStepState } from './connection-report-schema'

/**
 * "Test connection"'s report and the proxy sign-in request as every runtime reads them, without zod, so the
 * renderer can import them (the schemas are in connection-report-schema.ts, for the contract and the CLI).
 */
export type {
  CertificateSummary,
  ConnectionReport,
  ConnectionStep,
  ConnectionStepId,
  ConnectionStepState,
  ProxySignInAnswer,
  ProxySignInRequest,
} from './connection-report-schema'

const STATE_MARKS: Readonly<Record<ConnectionStepState, string>> = { ok: '✓', failed: '✗', skipped: '–' }

/** A step's time as people read it: "12 ms", "1.4 s". */
export function stepTime(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

/**
 * The report as plain text, one line per step (✓/✗/–, label, time, message) and the chain under its step: what
 * the CLI prints and what "Copy report" puts on the clipboard for IT. Holds only what the report holds, which is
 * never a secret.
 */
export function connectionReportText(report: ConnectionReport): string {
  const lines = [
    `RosterDesk connection check (${report.runtime === 'app' ? 'app' : 'command line'}), ${report.startedAt}`,
    `Service: ${report.baseUrl}${report.profile === undefined ? '' : ` (profile ${report.profile})`}`,
  ]
  for (const step of report.steps) {
    const time = step.state === 'skipped' ? '' : ` (${stepTime(step.ms)})`
    lines.push(`${STATE_MARKS[step.state]} ${step.label}${time}: ${step.message}`)
    for (const certificate of step.certificates ?? []) {
      lines.push(`    ${certificate.subject}, issued by ${certificate.issuer}`)
      lines.push(
        `      valid ${certificate.validFrom} to ${certificate.validTo}, SHA-256 ${certificate.fingerprint256}`,
      )
    }
  }
  lines.push(connectionResultText(report, 'above'))
  return lines.join('\n')
}

/**
 * The report's last line, the same in the app (the steps shown `below` it) and the CLI (`above`): the step the
 * connection failed at; else, when the employee list was not asked for (no sign-in), that it was skipped, never
 * "every step passed"; else that every step passed (the steps a runtime cannot see itself are skipped then too).
 */
export function connectionResultText(report: ConnectionReport, steps: 'above' | 'below'): string {
  const failed = report.steps.find((step) => step.state === 'failed')
  if (failed !== undefined) return `Result: the connection failed at “${failed.label}” (✗ ${steps}).`
  const list = report.steps.find((step) => step.id === 'list')
  if (list?.state === 'skipped') return `Result: no step failed; “${list.label}” was skipped (– ${steps}).`
  return 'Result: every step passed.'
}
