import type { ChangeEntry, ChangeKind } from '../../../shared/domain/changes'
import type { ExportFormat } from '../../../shared/domain/export'
import type { EmployeeRow, JsonValue } from '../../../shared/domain/rows'
import { columnLabel } from '../columns/column-label'
import type { ChangeEntrySource, ChangeHistory } from '../changes/change-history'
import type { ExportAbout, ExportColumn, ExportRowSource, ExportSection } from './export-types'

/** Entries read per batch from a change log. */
const ENTRY_BATCH = 500

/** The sheets of "Export changes…", in this order, and how the CSV's `Change` column names each kind. */
export const CHANGE_SHEETS: ReadonlyArray<{ readonly kind: ChangeKind; readonly name: string }> = [
  { kind: 'added', name: 'Added' },
  { kind: 'removed', name: 'Removed' },
  { kind: 'changed', name: 'Changed' },
]

// Keys of the rows this export builds (never the data's own keys, so no employee field can collide with them).
const CHANGE = 'change'
const NUMBER = 'employeeNumber'
const UUID = 'UUID'
const NAME = 'name'
const STATUS = 'status'
const PAY_CYCLE = 'payCycleId'
const FIELD = 'field'
const BEFORE = 'before'
const AFTER = 'after'
/** The changed field's own name (FIELD holds its label): never a column, it tells the writers which are money. */
const FIELD_KEY = 'fieldKey'

/**
 * The parts of a changes export. XLSX: a sheet per kind (Added, Removed, Changed), each listing the employee's
 * number (when the data has a number column), UUID, name, status and pay cycle; Changed adds one row per field
 * that changed, with its value before and after. CSV: the same rows in one file, a `Change` column first saying
 * which list each row belongs to.
 */
export function changeExportSections(source: ChangeEntrySource, format: ExportFormat): ExportSection[] {
  const identity: ExportColumn[] = [
    ...(source.numberColumn === undefined
      ? []
      : [{ key: NUMBER, label: columnLabel(source.numberColumn), kind: 'text' as const }]),
    { key: UUID, label: columnLabel('UUID'), kind: 'text' },
    { key: NAME, label: 'Name', kind: 'text' },
    { key: STATUS, label: columnLabel('employeeStatus'), kind: 'text' },
    { key: PAY_CYCLE, label: columnLabel('payCycleId'), kind: 'text' },
  ]
  const difference: ExportColumn[] = [
    { key: FIELD, label: 'Field', kind: 'text' },
    // A salary before and after is money (shared/money.ts), as it is on screen; which rows are depends on the field.
    { key: BEFORE, label: 'Before', kind: 'mixed', moneyFieldFrom: FIELD_KEY },
    { key: AFTER, label: 'After', kind: 'mixed', moneyFieldFrom: FIELD_KEY },
  ]
  if (format === 'csv') {
    return [
      {
        sheetName: 'Changes',
        columns: [{ key: CHANGE, label: 'Change', kind: 'text' }, ...identity, ...difference],
        source: rowSource(source, CHANGE_SHEETS),
      },
    ]
  }
  return CHANGE_SHEETS.map((sheet) => ({
    sheetName: sheet.name,
    columns: sheet.kind === 'changed' ? [...identity, ...difference] : identity,
    source: rowSource(source, [sheet]),
  }))
}

/** One sync as the change history describes it (`ChangeHistory.describe`): plain data, so it crosses to a worker. */
export type DescribedRun = ReturnType<ChangeHistory['describe']>

/** What the About sheet of a changes export says besides the sync itself. */
export interface ChangesAboutContext {
  readonly profile?: string
  /** Where the sync read from when its run log has no name for it (the CLI's --environment). */
  readonly environment?: string
  readonly createdAt: Date
  readonly appVersion?: string
}

/**
 * The sheets and the About sheet of "Export changes…" for one sync: the one composition the app's core worker and
 * an export on the caller's own thread (the CLI, tests) both write.
 */
export function changesExport(
  described: DescribedRun,
  source: ChangeEntrySource,
  format: ExportFormat,
  context: ChangesAboutContext,
): { readonly sections: ExportSection[]; readonly about: ExportAbout } {
  const { run, statusFilter } = described
  return {
    sections: changeExportSections(source, format),
    about: {
      kind: 'changes',
      ...(context.profile === undefined ? {} : { profile: context.profile }),
      environment: run.environment ?? context.environment ?? run.serviceAddress ?? 'not recorded',
      tenantId: run.tenantId ?? '',
      changes: {
        added: run.added,
        removed: run.removed,
        changed: run.changed,
        ...(run.serviceAddress === undefined ? {} : { serviceAddress: run.serviceAddress }),
      },
      syncedAt: new Date(run.endedAt),
      ...(statusFilter === undefined ? {} : { statusFilter }),
      createdAt: context.createdAt,
      ...(context.appVersion === undefined ? {} : { appVersion: context.appVersion }),
    },
  }
}

/** The rows of some kinds, in order; the total counts employees, so a changed one with many fields runs over. */
function rowSource(
  source: ChangeEntrySource,
  sheets: ReadonlyArray<{ readonly kind: ChangeKind; readonly name: string }>,
): ExportRowSource {
  return {
    total: sheets.reduce((sum, sheet) => sum + source.counts[sheet.kind], 0),
    async *batches() {
      for (const sheet of sheets) {
        for await (const entries of source.batches(sheet.kind, ENTRY_BATCH)) {
          yield entries.flatMap((entry: ChangeEntry) => rowsOf(sheet.name, entry))
        }
      }
    },
  }
}

/** An entry's rows: one, or for a changed employee one per field (before → after), the employee repeated on each. */
export function rowsOf(change: string, entry: ChangeEntry): EmployeeRow[] {
  const base: EmployeeRow = {
    [CHANGE]: change,
    [UUID]: entry.UUID,
    [NAME]: entry.name,
    ...text(NUMBER, entry.employeeNumber),
    ...text(STATUS, entry.status),
    ...text(PAY_CYCLE, entry.payCycleId),
  }
  if (entry.changes !== undefined && entry.changes.length > 0) {
    return entry.changes.map((fieldChange) => ({
      ...base,
      [FIELD]: columnLabel(fieldChange.field),
      [FIELD_KEY]: fieldChange.field,
      ...value(BEFORE, fieldChange.before),
      ...value(AFTER, fieldChange.after),
    }))
  }
  // A changed employee synced before field values were kept: its field names only.
  if (entry.fields !== undefined && entry.fields.length > 0) {
    return entry.fields.map((field) => ({ ...base, [FIELD]: columnLabel(field) }))
  }
  return [base]
}

function text(key: string, content: string | undefined): EmployeeRow {
  return content === undefined ? {} : { [key]: content }
}

function value(key: string, content: JsonValue | undefined): EmployeeRow {
  return content === undefined ? {} : { [key]: content }
}
