import {
  CSV_NOT_ALLOWED_MESSAGE,
  NO_EXPORT_RULES,
  ONLY_SENSITIVE_COLUMNS_MESSAGE,
  sensitiveColumnsIncluded,
  tooManyRowsMessage,
  type ExportRulesView,
  type SensitiveColumnsAnswer,
} from '../../../shared/policy-view'
import { isSensitiveField } from '../../../shared/sensitive-fields'
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
    ...(rules.sensitiveColumns === undefined ? {} : { sensitiveColumns: rules.sensitiveColumns }),
  }
}

/** What the renderer is shown of the rules (its schema is strict): the formats, the row limit, sensitive columns. */
export function exportRulesView(rules: ExportRules): ExportRulesView {
  return {
    csvAllowed: rules.csvAllowed,
    maxRows: rules.maxRows,
    ...(rules.sensitiveColumns === undefined ? {} : { sensitiveColumns: rules.sensitiveColumns }),
  }
}

/**
 * The columns an export of `columns` writes under the rules and the clerk's answer (`sensitiveColumnsIncluded`,
 * decided in the core for every path, export-service.ts, so no renderer request gets round `exclude`):
 * all, or those that are not sensitive, in the same order. Refuses ('not-allowed') an export whose every column is
 * sensitive and left out, saying so, rather than writing a file of no columns.
 */
export function allowedExportColumns(
  rules: ExportRules,
  columns: readonly string[],
  answer?: SensitiveColumnsAnswer,
): string[] {
  if (sensitiveColumnsIncluded(rules, answer)) return [...columns]
  const kept = columns.filter((column) => !isSensitiveField(column))
  if (kept.length === 0 && columns.length > 0) {
    throw new RosterDeskError('not-allowed', ONLY_SENSITIVE_COLUMNS_MESSAGE, {
      detail: `Machine policy: exports.sensitiveColumns is ${rules.sensitiveColumns ?? 'include'}; every column asked for is sensitive`,
    })
  }
  return kept
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
