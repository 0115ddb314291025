import type { ChangeHistoryEntry, JsonValue } from '../../../shared/domain'
import { formatCount, formatValue, plural } from './format-value'

/** "+3 −2 ~5": a sync's counts at a glance (the full words go in the button's accessible description). */
export function changeCounts(run: Pick<ChangeHistoryEntry, 'added' | 'removed' | 'changed'>): string {
  return `+${formatCount(run.added)} −${formatCount(run.removed)} ~${formatCount(run.changed)}`
}

/** "3 added, 2 removed, 5 changed". */
export function changeWords(run: Pick<ChangeHistoryEntry, 'added' | 'removed' | 'changed'>): string {
  return `${formatCount(run.added)} added, ${formatCount(run.removed)} removed, ${formatCount(run.changed)} changed`
}

/** What a sync did, for its line in the history: "first sync: 5,000 employees" or its counts. */
export function runSummary(run: ChangeHistoryEntry): string {
  return run.firstSync ? `first sync: ${plural(run.employeeCount, 'employee')}` : changeWords(run)
}

/**
 * A value of field `field` as the change report shows it: an amount as money ("58,234.50", the one rule of
 * shared/money.ts), "(empty)" for a field that was blank or absent.
 */
export function changeValue(value: JsonValue | undefined, field: string): string {
  const text = formatValue(value, field)
  return text === '' ? '(empty)' : text
}
