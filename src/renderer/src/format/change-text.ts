import type { ChangeHistoryEntry, ChangeKind } from '../../../shared/domain/changes'
import type { ChangesWritten } from '../../../shared/domain/export'
import type { JsonValue } from '../../../shared/domain/rows'
import { formatCount, formatValue, plural } from './format-value'

/**
 * A sync's counts as the change chip shows them, each with its word ("3 added", "2 removed", "5 changed"): exact
 * counts, never a sign that reads as "about". Joined with ", " they are the chip's accessible name.
 */
export function changeCounts(
  run: Pick<ChangeHistoryEntry, 'added' | 'removed' | 'changed'>,
): ReadonlyArray<{ readonly kind: ChangeKind; readonly text: string }> {
  return CHANGE_KINDS.map((kind) => ({ kind, text: `${formatCount(run[kind])} ${kind}` }))
}

const CHANGE_KINDS: readonly ChangeKind[] = ['added', 'removed', 'changed']

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

/**
 * What "Export changes…" wrote, by kind, from the export's own result, as a short list's items: "150 added
 * employees", "90 removed employees", "300 changed employees: 600 rows, one per changed field".
 */
export function changesWrittenItems(written: ChangesWritten): string[] {
  const changed = plural(written.changed, 'changed employee')
  return [
    plural(written.added, 'added employee'),
    plural(written.removed, 'removed employee'),
    written.changed === 0
      ? changed
      : `${changed}: ${plural(written.changedRows, 'row')}, one per changed field`,
  ]
}
