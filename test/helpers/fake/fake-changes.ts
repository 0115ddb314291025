import {
  CHANGE_HISTORY_RUNS,
  changeEntryName,
  changeEntryNameParts,
  changesWritten,
  employeeNumberColumn,
  entryFacts,
  exportRowsOf,
  fieldChanges,
} from '../../../src/shared/change-rules'
import type {
  ChangeEntry,
  ChangeHistoryEntry,
  ChangeKind,
  ChangeListOptions,
  ChangeListPage,
  ChangeReport,
  ChangeSortColumn,
} from '../../../src/shared/domain/changes'
import type { ChangesExportRequest, ExportProgress, ExportResult } from '../../../src/shared/domain/export'
import type { EmployeeRow } from '../../../src/shared/domain/rows'
import { foldText } from '../../../src/main/core/text/text-fold'
import { identifierColumnsOf } from '../../../src/main/core/query/column-role'
import { FakeIpcError } from './fake-api'

type ChangeLists = Record<ChangeKind, ChangeEntry[]>

interface FakeRun {
  readonly entry: ChangeHistoryEntry
  readonly lists: ChangeLists
}

export interface FakeSyncFacts {
  readonly runId: number
  readonly startedAt: string
  readonly endedAt: string
  readonly environment: string
  readonly tenantId: string
}

/** How many entries of each list the report's samples carry (the real core's is larger; tests count these). */
const SAMPLE = 10

/**
 * The change history of the renderer's fake core, built with the real rules (change-rules.ts for fields, names and
 * facts, column-role.ts for the employee number, text-fold.ts for the name order), so components are tested
 * against the entries main would send.
 */
export class FakeChanges {
  private runs: FakeRun[] = []

  /** Records a complete sync from `before` to `after` and returns its report. */
  record(before: readonly EmployeeRow[], after: readonly EmployeeRow[], sync: FakeSyncFacts): ChangeReport {
    const firstSync = this.runs.length === 0 && before.length === 0
    const numberColumn = employeeNumberColumn(
      [...identifierColumnsOf(after)].map(([key, role]) => ({ key, role })),
    )
    const old = new Map(before.map((row) => [String(row['UUID']), row]))
    const next = new Map(after.map((row) => [String(row['UUID']), row]))
    const entry = (row: EmployeeRow): ChangeEntry => ({
      UUID: String(row['UUID']),
      name: changeEntryName(row),
      ...changeEntryNameParts(row),
      ...entryFacts(row, numberColumn),
    })
    const lists: ChangeLists = {
      added: byName(
        after.filter((row) => !old.has(String(row['UUID']))),
        entry,
      ),
      removed: byName(
        before.filter((row) => !next.has(String(row['UUID']))),
        (row) => ({ ...entry(row), row }),
      ),
      changed: byName(after, (row) => {
        const previous = old.get(String(row['UUID']))
        if (previous === undefined) return null
        const changes = fieldChanges(previous, row)
        if (changes.length === 0) return null
        return { ...entry(row), fields: changes.map((change) => change.field), changes }
      }),
    }
    this.runs = [
      {
        entry: {
          runId: sync.runId,
          startedAt: sync.startedAt,
          endedAt: sync.endedAt,
          employeeCount: after.length,
          firstSync,
          added: lists.added.length,
          removed: lists.removed.length,
          changed: lists.changed.length,
          entriesKept: !firstSync,
          environment: sync.environment,
          tenantId: sync.tenantId,
        },
        lists,
      },
      ...this.runs,
    ].slice(0, CHANGE_HISTORY_RUNS)
    const sample = (kind: ChangeKind) =>
      lists[kind].slice(0, SAMPLE).map((item) => ({ UUID: item.UUID, name: item.name }))
    return {
      added: lists.added.length,
      removed: lists.removed.length,
      changed: lists.changed.length,
      addedSample: sample('added'),
      removedSample: sample('removed'),
      changedSample: lists.changed
        .slice(0, SAMPLE)
        .map((item) => ({ UUID: item.UUID, name: item.name, fields: item.fields ?? [] })),
      firstSync,
    }
  }

  history(): ChangeHistoryEntry[] {
    return this.runs.map((run) => run.entry)
  }

  /**
   * As the real core: a first sync's "added" list is everyone, though the report does not offer it; searched and
   * sorted by the rules of change-log-file.ts `changeListSql` (a name word, the number or the UUID starts with each
   * word; the chosen column, empty values last, ties by name).
   */
  page(
    runId: number,
    kind: ChangeKind,
    offset: number,
    limit: number,
    options: ChangeListOptions = {},
  ): ChangeListPage {
    const words = foldText(options.search ?? '')
      .split(/\s+/)
      .filter((word) => word !== '')
    const found = this.run(runId).lists[kind].filter((entry) => {
      const nameWords = foldText(`${entry.lastName ?? ''} ${entry.firstName ?? ''}`).split(/[\s-]+/)
      const others = [entry.employeeNumber ?? '', entry.UUID].map((value) => value.toLowerCase())
      return words.every(
        (word) =>
          nameWords.some((part) => part.startsWith(word)) || others.some((value) => value.startsWith(word)),
      )
    })
    const list = sortedEntries(found, options.sort)
    return { total: list.length, items: list.slice(offset, offset + limit) }
  }

  latestPage(kind: ChangeKind, offset: number, limit: number): ChangeListPage {
    const latest = this.runs[0]
    return latest === undefined ? { total: 0, items: [] } : this.page(latest.entry.runId, kind, offset, limit)
  }

  /** "Writes" the export: its progress, and as many rows as the real one (a changed employee's row per field). */
  async export(
    request: ChangesExportRequest,
    progress: (value: ExportProgress) => void,
    cancelled: () => boolean,
  ): Promise<ExportResult> {
    const run = this.run(request.runId)
    const rows = (['added', 'removed', 'changed'] as const)
      .flatMap((kind) => run.lists[kind])
      .reduce((sum, entry) => sum + exportRowsOf(entry), 0)
    progress({ rowsWritten: 0, rowsTotal: rows })
    await new Promise((resolve) => setTimeout(resolve, 1))
    if (cancelled()) return { status: 'cancelled' }
    progress({ rowsWritten: rows, rowsTotal: rows })
    const day = run.entry.endedAt.slice(0, 10)
    const counts = { added: run.entry.added, removed: run.entry.removed, changed: run.entry.changed }
    return {
      status: 'written',
      rows,
      fileName: `Changes ${day}.${request.format}`,
      changes: changesWritten(counts, rows),
    }
  }

  private run(runId: number): FakeRun {
    const run = this.runs.find((candidate) => candidate.entry.runId === runId)
    if (run === undefined) {
      throw new FakeIpcError('not-found', 'That sync is no longer in the change history.')
    }
    return run
  }
}

/** The entries of some rows, in the real change log's order: folded last name, then first name, then UUID. */
function byName(
  rows: readonly EmployeeRow[],
  entryOf: (row: EmployeeRow) => ChangeEntry | null,
): ChangeEntry[] {
  const text = (row: EmployeeRow, key: string): string => {
    const value = row[key]
    return typeof value === 'string' ? value : ''
  }
  return rows
    .flatMap((row) => {
      const entry = entryOf(row)
      if (entry === null) return []
      return [{ key: `${foldText(text(row, 'lastName'))}\u0001${foldText(text(row, 'firstName'))}`, entry }]
    })
    .sort((a, b) =>
      a.key !== b.key
        ? a.key < b.key
          ? -1
          : 1
        : a.entry.UUID < b.entry.UUID
          ? -1
          : a.entry.UUID > b.entry.UUID
            ? 1
            : 0,
    )
    .map((keyed) => keyed.entry)
}

const SORT_VALUE: Readonly<Record<ChangeSortColumn, (entry: ChangeEntry) => string | undefined>> = {
  name: () => undefined,
  number: (entry) => entry.employeeNumber,
  status: (entry) => entry.status,
  payCycle: (entry) => entry.payCycleId,
}

/** Entries (in name order) in the order `sort` asks for: its column's value, empty ones last, ties kept by name. */
function sortedEntries(entries: readonly ChangeEntry[], sort: ChangeListOptions['sort']): ChangeEntry[] {
  if (sort === undefined) return [...entries]
  if (sort.column === 'name') return sort.order === 'asc' ? [...entries] : [...entries].reverse()
  const valueOf = SORT_VALUE[sort.column]
  const sign = sort.order === 'asc' ? 1 : -1
  return [...entries].sort((a, b) => {
    const left = valueOf(a)
    const right = valueOf(b)
    if (left === undefined || right === undefined)
      return (left === undefined ? 1 : 0) - (right === undefined ? 1 : 0)
    return left === right ? 0 : left < right ? -sign : sign
  })
}
