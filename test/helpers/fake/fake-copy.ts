import type { ExportRecordEntry } from '../../../src/shared/domain/export'
import type { EmployeeRow } from '../../../src/shared/domain/rows'
import { isSensitiveField } from '../../../src/shared/sensitive-fields'
import {
  clipboardContent,
  copiedColumns,
  copyIsRecorded,
  type ClipboardContent,
} from '../../../src/main/core/export/copy-rows'
import { FakeIpcError, type FakeHandlers } from './fake-api'
import { columnsOf } from './fake-query'

export interface FakeCopy {
  readonly handlers: Pick<FakeHandlers, 'export:copy-rows' | 'export:history'>
  /** What main wrote on the system clipboard, newest last. */
  readonly clipboard: ClipboardContent[]
  /** When set, the next copies fail as a clipboard main cannot write. */
  failing: boolean
}

/**
 * The table's Copy and Help → Export history as main answers them, over the fake cache: the rows by UUID in the
 * order asked, the columns and both clipboard formats by the core's own functions (copy-rows.ts), a copy of more
 * than one row noted in the record (newest first, after the entries the test starts with).
 */
export function createFakeCopy(options: {
  readonly cache: () => readonly EmployeeRow[]
  readonly profile: () => string
  readonly now: () => number
  readonly record?: readonly ExportRecordEntry[]
}): FakeCopy {
  const clipboard: ClipboardContent[] = []
  const record: ExportRecordEntry[] = [...(options.record ?? [])]
  const fake: FakeCopy = {
    clipboard,
    failing: false,
    handlers: {
      'export:copy-rows': async (request) => {
        const rows = options.cache()
        const byUuid = new Map(rows.map((row) => [row['UUID'], row]))
        const chosen = [...new Set(request.uuids)].flatMap((uuid) => {
          const row = byUuid.get(uuid)
          return row === undefined ? [] : [row]
        })
        const columns = copiedColumns(request.columns, columnsOf(rows))
        if (fake.failing)
          throw new FakeIpcError('internal', 'RosterDesk could not copy to the clipboard. Try again.')
        clipboard.push(clipboardContent(columns, chosen, request.headers))
        if (copyIsRecorded(chosen.length)) {
          const keys = columns.map((column) => column.key)
          record.unshift({
            at: new Date(options.now()).toISOString(),
            runtime: 'app',
            profile: options.profile(),
            what: 'copy',
            chosenRows: true,
            columns: keys,
            rows: chosen.length,
            sensitiveColumns: keys.some(isSensitiveField),
          })
        }
        return { rows: chosen.length, columns: columns.length }
      },
      'export:history': async () => ({ entries: [...record], skippedLines: 0 }),
    },
  }
  return fake
}
