// Types for electronegativity-findings.mjs, which stays plain JavaScript so `node` runs the gate without a build.

export type Severity = 'INFORMATIONAL' | 'LOW' | 'MEDIUM' | 'HIGH'
export type Confidence = 'TENTATIVE' | 'FIRM' | 'CERTAIN'

export interface Finding {
  readonly check: string
  readonly severity: Severity
  readonly confidence: Confidence
  /** Repository-relative and '/'-separated, or 'N/A' for a finding about the whole app. */
  readonly file: string
  readonly line: number
  readonly column: number
  readonly description: string
  readonly url: string
}

export interface Justification {
  readonly check: string
  readonly file: string
  readonly reason: string
}

export interface Evaluation {
  readonly failures: Finding[]
  readonly justified: Array<{ finding: Finding; entry: Justification }>
  readonly other: Finding[]
  readonly stale: Justification[]
}

export const SEVERITIES: readonly Severity[]
export const CONFIDENCES: readonly Confidence[]
export const MIN_REASON_LENGTH: number

export function isGated(finding: Pick<Finding, 'severity' | 'confidence'>): boolean
export function toFinding(issue: unknown, relativePath: (absolutePath: string) => string): Finding
export function parseJustifications(json: unknown): { entries: Justification[]; problems: string[] }
export function evaluate(findings: readonly Finding[], entries: readonly Justification[]): Evaluation
export function findSuppressions(file: string, text: string): string[]
export function describeFinding(finding: Finding): string
export function report(evaluation: Evaluation, problems?: readonly string[]): { ok: boolean; lines: string[] }
