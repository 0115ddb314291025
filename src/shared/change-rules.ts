import type { ChangeEntry, ChangeKind, FieldChange } from './domain/changes'
import type { ChangesWritten } from './domain/export'
import type { EmployeeRow, JsonValue } from './domain/rows'

/**
 * The rules of the change report, pure and zod-free: the sync applies them to every row it stores, the renderer's
 * test fake to its rows, so both report the same changes in the same words.
 */

/** Complete syncs whose reports are kept (and listed in "Changes"); older ones are let go, oldest first. */
export const CHANGE_HISTORY_RUNS = 20

/**
 * The fields whose values differ between the previous row and the new one, each from what to what. Fields the
 * new row added or dropped count too (their missing side is left out). Fields come in the previous row's order,
 * then the new row's own, so the list reads like the row. Values are compared as JSON, so 1 and "1" differ.
 */
export function fieldChanges(before: EmployeeRow, after: EmployeeRow): FieldChange[] {
  const changes: FieldChange[] = []
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const old = Object.hasOwn(before, field) ? before[field] : undefined
    const now = Object.hasOwn(after, field) ? after[field] : undefined
    if (sameValue(old, now)) continue
    changes.push({
      field,
      ...(old === undefined ? {} : { before: old }),
      ...(now === undefined ? {} : { after: now }),
    })
  }
  return changes
}

function sameValue(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}

/** "First Last" for change lists; the UUID when the row has no names. */
export function changeEntryName(row: EmployeeRow): string {
  // Called for every added or changed row of a sync (100,000 on a first one): no intermediate objects or arrays.
  const firstName = namePart(row, 'firstName')
  const lastName = namePart(row, 'lastName')
  if (firstName === undefined) return lastName ?? String(row['UUID'])
  return lastName === undefined ? firstName : `${firstName} ${lastName}`
}

/**
 * The name's parts that `changeEntryName` joins, each apart, so the report can isolate each one: a right-to-left
 * override in a first name must not reorder the last name after it.
 */
export function changeEntryNameParts(row: EmployeeRow): Pick<ChangeEntry, 'firstName' | 'lastName'> {
  const firstName = namePart(row, 'firstName')
  const lastName = namePart(row, 'lastName')
  return {
    ...(firstName === undefined ? {} : { firstName }),
    ...(lastName === undefined ? {} : { lastName }),
  }
}

/** A name field's text, or undefined when it is absent, not text, or blank. */
function namePart(row: EmployeeRow, key: 'firstName' | 'lastName'): string | undefined {
  const value = row[key]
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

/**
 * Which column is "the employee number": the first identifier column of digits (column-role.ts decides which
 * columns those are, from their values), so a service calling it `staffNo` is read the same as `employeeNumber`.
 */
export function employeeNumberColumn(
  identifiers: ReadonlyArray<{ readonly key: string; readonly role: string }>,
): string | undefined {
  return identifiers.find((column) => column.role === 'number')?.key
}

/** The fields an entry shows besides its name, read from one row (the new one, or a removed employee's last). */
export function entryFacts(
  row: EmployeeRow,
  numberColumn: string | undefined,
): Pick<ChangeEntry, 'employeeNumber' | 'status' | 'payCycleId'> {
  const text = (value: JsonValue | undefined): string | undefined =>
    value === undefined || value === null || value === '' ? undefined : String(value)
  const employeeNumber = numberColumn === undefined ? undefined : text(row[numberColumn])
  const status = text(row['employeeStatus'])
  const payCycleId = text(row['payCycleId'])
  return {
    ...(employeeNumber === undefined ? {} : { employeeNumber }),
    ...(status === undefined ? {} : { status }),
    ...(payCycleId === undefined ? {} : { payCycleId }),
  }
}

/** Spreadsheet rows one entry takes in "Export changes…": one per changed field, else one. */
export function exportRowsOf(entry: Pick<ChangeEntry, 'changes' | 'fields'>): number {
  return Math.max(1, entry.changes?.length ?? entry.fields?.length ?? 1)
}

/**
 * What a changes export wrote by kind, from the change log's own counts and the rows the engine wrote: an added or
 * removed employee takes one row (core/export/change-export.ts `rowsOf`), so the rows left over are the changed employees' (one per field).
 */
export function changesWritten(counts: Readonly<Record<ChangeKind, number>>, rows: number): ChangesWritten {
  return {
    added: counts.added,
    removed: counts.removed,
    changed: counts.changed,
    changedRows: Math.max(0, rows - counts.added - counts.removed),
  }
}
