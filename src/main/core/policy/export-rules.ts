import {
  CSV_NOT_ALLOWED_MESSAGE,
  NO_EXPORT_RULES,
  tooManyRowsMessage,
  type ExportRulesView,
} from '../../../shared/policy-view'
import { RosterDeskError } from '../errors'
import type { SensitivityLabel } from './policy-schema'
import type { PolicyInForce } from './policy-in-force'

/**
 * The machine policy's export rules (`exports` in policy-schema.ts), one place for both: every export the app or
 * the CLI writes (a view, a roster, the chosen rows, a change report) passes `checkExportFormat` before its save
 * dialog or its file, and `checkExportRows` once its rows are counted, before any file is created
 * (export-engine.ts, where every export is written). Plain data, so an export on the core worker carries them.
 */
export interface ExportRules extends ExportRulesView {
  /** The sensitivity label every XLSX carries (xlsx-writer.ts); absent: none. */
  readonly sensitivityLabel?: SensitivityLabel
}

/** The export rules in force: the policy's, or none (every format, any number of rows, no label). */
export function exportRulesOf(inForce: PolicyInForce): ExportRules {
  const rules = inForce.policy?.exports
  if (rules === undefined) return NO_EXPORT_RULES
  return {
    csvAllowed: rules.csvAllowed ?? true,
    maxRows: rules.maxRows,
    ...(rules.sensitivityLabel === undefined ? {} : { sensitivityLabel: rules.sensitivityLabel }),
  }
}

/** What the renderer is shown of the rules (its schema is strict): the formats and the row limit. */
export function exportRulesView(rules: ExportRules): ExportRulesView {
  return { csvAllowed: rules.csvAllowed, maxRows: rules.maxRows }
}

/** Why the organisation does not allow `format` (CSV when `csvAllowed` is false); undefined when it does. */
export function exportFormatProblem(rules: ExportRules, format: 'xlsx' | 'csv'): string | undefined {
  return format === 'csv' && !rules.csvAllowed ? CSV_NOT_ALLOWED_MESSAGE : undefined
}

/** Refuses ('not-allowed') a format the organisation does not allow (`exportFormatProblem`). */
export function checkExportFormat(rules: ExportRules, format: 'xlsx' | 'csv'): void {
  const problem = exportFormatProblem(rules, format)
  if (problem !== undefined) {
    throw new RosterDeskError('not-allowed', problem, {
      detail: `Machine policy: exports.csvAllowed is false; a ${format} export was asked for`,
    })
  }
}

/** Refuses ('not-allowed') an export of more rows than the organisation allows in one, saying both numbers. */
export function checkExportRows(rules: ExportRules, rows: number): void {
  if (rules.maxRows !== undefined && rows > rules.maxRows) {
    throw new RosterDeskError('not-allowed', tooManyRowsMessage(rows, rules.maxRows), {
      detail: `Machine policy: exports.maxRows is ${rules.maxRows}; the export holds ${rows} rows`,
    })
  }
}
