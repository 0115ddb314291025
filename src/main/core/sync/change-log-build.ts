import { changeEntryName, changeEntryNameParts, entryFacts } from '../../../shared/change-rules'
import type { ChangeKind } from '../../../shared/domain/changes'
import type { EmployeeRow } from '../../../shared/domain/rows'
import type { CacheDatabase } from '../cache/cache-database'
import type { ChangeLogRecord, ChangeLogWriter } from '../cache/change-log-file'
import type { SnapshotWriter } from '../snapshot/snapshot-writer'
import { yieldToEventLoop } from '../event-loop'
import { foldText } from '../text/text-fold'
import type { BuiltSnapshot } from './snapshot-builder'
import { parseStoredRow } from './stored-row'

/** Entries written per step; the event loop runs between steps, so a mass change does not hold the app. */
const ENTRIES_PER_STEP = 2_000

export interface ChangeLogInput {
  readonly cache: CacheDatabase
  /** The run's snapshot, still open: added and changed employees' rows are read back from it by id. */
  readonly writer: SnapshotWriter
  readonly built: BuiltSnapshot
  readonly runId: number
  /** The data's employee-number column (change-rules.ts), if it has one. */
  readonly numberColumn: string | undefined
  readonly now: Date
}

/**
 * Writes and seals a run's change log (change-log-file.ts) before the commit that names it: every employee the
 * run added or changed, with its facts as they are now and, if changed, its field changes; every employee it
 * removed, with the last row the cache held. A first sync changes nothing and writes none (null).
 * The caller names the file in the commit (SyncRuns.completeRun) and closes it, or discards it on failure.
 */
export async function writeChangeLog(input: ChangeLogInput): Promise<ChangeLogWriter | null> {
  const { built, numberColumn } = input
  if (built.firstSync) return null
  const log = input.cache.runs.createChangeLog(input.now)
  try {
    for (let start = 0; start < built.changedRows.length; start += ENTRIES_PER_STEP) {
      const step = built.changedRows.slice(start, start + ENTRIES_PER_STEP)
      const rows = input.writer.rowsJson(step.map((changed) => changed.id))
      const records: ChangeLogRecord[] = []
      step.forEach((changed, index) => {
        const json = rows[index]
        if (json === undefined) return
        const row = JSON.parse(json) as EmployeeRow
        records.push({
          ...recordOf(changed.kind, String(row['UUID']), row, numberColumn),
          ...(changed.changesJson === undefined ? {} : { changesJson: changed.changesJson }),
        })
      })
      log.write(records)
      await yieldToEventLoop()
    }
    for (let start = 0; start < built.removed.length; start += ENTRIES_PER_STEP) {
      log.write(
        built.removed.slice(start, start + ENTRIES_PER_STEP).map((removed) => ({
          ...recordOf(
            'removed',
            removed.uuid,
            parseStoredRow(removed.json) ?? { UUID: removed.uuid },
            numberColumn,
          ),
          rowJson: removed.json,
        })),
      )
      await yieldToEventLoop()
    }
    await log.seal({ run_id: String(input.runId), number_column: numberColumn ?? '' })
    return log
  } catch (error) {
    log.discard()
    throw error
  }
}

function recordOf(
  kind: ChangeKind,
  uuid: string,
  row: EmployeeRow,
  numberColumn: string | undefined,
): ChangeLogRecord {
  return {
    kind,
    uuid,
    name: changeEntryName(row),
    ...changeEntryNameParts(row),
    sortKey: sortKeyOf(row),
    ...entryFacts(row, numberColumn),
  }
}

/** Lists read like the employee table's default order: by last name, then first name, accents and case folded. */
function sortKeyOf(row: EmployeeRow): string {
  const text = (key: string): string => {
    const value = row[key]
    return typeof value === 'string' ? value : ''
  }
  return `${foldText(text('lastName'))}\u0001${foldText(text('firstName'))}`
}
