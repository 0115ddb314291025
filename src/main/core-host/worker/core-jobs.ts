import type { ExportProgress, ExportResult } from '../../../shared/domain/export'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { SnapshotReader } from '../../core/snapshot/snapshot-reader'
import type { CheckedFile, StoredValue } from '../../core/snapshot/snapshot-reader'
import { SearchIndex } from '../../core/query/search-index'
import type { SearchIndexParts } from '../../core/query/search-index'
import { columnTokenIndex } from '../../core/query/column-values'
import { rowGroups } from '../../core/query/match-rows'
import type { RowGroups } from '../../core/query/match-rows'
import { buildSortOrder } from '../../core/query/sort-order'
import type { SortOrder } from '../../core/query/sort-order'
import type { TermText, TokenIndexParts } from '../../core/query/token-index'
import { UuidParts } from '../../core/query/uuid-parts'
import type { UuidPartsData } from '../../core/query/uuid-parts'
import { loadExcelJs } from '../../core/export/exceljs-loader'
import { collectGarbage } from './collect-garbage'
import { runChangesExportJob } from './changes-export-job'
import type { ChangesExportCalls, ChangesExportJobInput } from './changes-export-job'
import { runExportJob, runPrintJob } from './export-job'
import { runSyncJob } from './sync-job'
import type { SyncCalls, SyncJobEvent, SyncJobInput, SyncJobResult } from './sync-job'
import type { ExportJobInput, PrintJobInput } from './export-job'
import type { PrintView } from '../../core/export/print-view'
import type { JobHandlers } from './serve-jobs'
import type { JobSpec } from './worker-protocol'
import type { CacheKey } from '../../core/sqlite/cache-key'

/** Which column of which snapshot file to build from. */
export interface ColumnJobInput {
  readonly snapshotPath: string
  readonly column: string
  readonly kind: ColumnInfo['kind']
}

export interface SearchIndexJobInput {
  readonly snapshotPath: string
  /** The file as the host's own open checked it (its reader's `checkedAs`): not quick_checked again here. */
  readonly checked?: CheckedFile
}

/** The core worker's jobs (core-worker.ts runs them; worker-column-builder.ts and others send them). */
export type CoreJobs = {
  readonly 'sort-order': JobSpec<ColumnJobInput & { readonly tieOrder: Uint32Array }, SortOrder>
  readonly 'column-index': JobSpec<ColumnJobInput, TokenIndexParts>
  readonly 'uuid-parts': JobSpec<{ readonly snapshotPath: string }, UuidPartsData | null>
  readonly 'search-index': JobSpec<SearchIndexJobInput, OpenedSearchIndex>
  readonly export: JobSpec<ExportJobInput, ExportResult, ExportProgress>
  readonly 'export-changes': JobSpec<ChangesExportJobInput, ExportResult, ExportProgress, ChangesExportCalls>
  readonly 'print-view': JobSpec<PrintJobInput, PrintView>
  readonly sync: JobSpec<SyncJobInput, SyncJobResult, SyncJobEvent, SyncCalls>
  /** Loads exceljs into the worker ahead of an export (the save dialog is open meanwhile); answers once loaded. */
  readonly 'load-exceljs': JobSpec<null, ExcelJsLoadOutcome>
}

/**
 * How loading exceljs went: `movedInternals` as exceljs-loader.ts found them (empty: the fast path), or the load's
 * error, which is the export's to report when it runs (it tries again).
 */
export type ExcelJsLoadOutcome =
  | { readonly loaded: true; readonly movedInternals: readonly string[] }
  | { readonly loaded: false; readonly error: string }

/** A snapshot's search index as the core worker opened it, with the row groups queries filter by. */
export interface OpenedSearchIndex {
  readonly index: SearchIndexParts
  readonly rowGroups: RowGroups
}

/** Reads one column of a snapshot on a read-only connection of the worker's own, closed afterwards. */
function withColumnValues<T>(input: ColumnJobInput, key: CacheKey, use: (values: StoredValue[]) => T): T {
  const reader = SnapshotReader.open(input.snapshotPath, key, 0, undefined, { formatOnly: true })
  try {
    return use(reader.columnValues(input.column, input.kind))
  } finally {
    reader.close()
  }
}

/**
 * The core worker's handlers; every cache file a job opens is opened with the key `cacheKey` gives (the thread's
 * own, worker-cache-key.ts), asked at each job so a worker started without one refuses the job, not its start.
 * The builds below each end with collectGarbage(): their garbage is collected before they answer, while the host
 * waits, not while it adopts the answer (collect-garbage.ts).
 */
export const coreJobHandlers = (cacheKey: () => CacheKey): JobHandlers<CoreJobs> => ({
  'sort-order': (input, context) => {
    const order = withColumnValues(input, cacheKey(), (values) => buildSortOrder(values, input.tieOrder))
    // rank, order and rankStart are fresh arrays: moved to the host, not copied.
    context.transfer(order.rank.buffer, order.order.buffer, order.rankStart.buffer)
    collectGarbage()
    return order
  },
  'column-index': (input, context) => {
    const parts = withColumnValues(input, cacheKey(), (values) => columnTokenIndex(values).toParts())
    context.transfer(parts.text.buffer, parts.offsets.buffer, parts.starts.buffer, parts.postings.buffer)
    collectGarbage()
    return parts
  },
  'uuid-parts': (input, context) => {
    const reader = SnapshotReader.open(input.snapshotPath, cacheKey(), 0, undefined, { formatOnly: true })
    try {
      const data = UuidParts.read(reader)?.toData() ?? null
      if (data !== null) context.transfer(data.text.buffer, data.starts.buffer)
      collectGarbage()
      return data
    } finally {
      reader.close()
    }
  },
  'search-index': (input, context) => {
    const reader = SnapshotReader.open(
      input.snapshotPath,
      cacheKey(),
      0,
      undefined,
      input.checked === undefined ? {} : { alreadyChecked: input.checked },
    )
    try {
      const index = SearchIndex.load(reader)
      const parts = movable(index.toParts())
      // The walks over every row that adopting the index would otherwise make on the host's thread.
      const groups = rowGroups(index)
      for (const array of typedArraysOf(parts)) context.transfer(array.buffer)
      context.transfer(
        groups.group.buffer,
        groups.status.buffer,
        groups.cycleStart.buffer,
        groups.cycleCodes.buffer,
        groups.size.buffer,
      )
      collectGarbage()
      return { index: parts, rowGroups: groups }
    } finally {
      reader.close()
    }
  },
  export: (input, context) => runExportJob(input, context, cacheKey()),
  'export-changes': runChangesExportJob,
  'print-view': (input, context) => runPrintJob(input, context, cacheKey()),
  sync: (input, context) => runSyncJob(input, context, cacheKey()),
  'load-exceljs': async (_input, context) => {
    // The warning about moved internals is logged here, once per worker start.
    try {
      const loaded = await loadExcelJs(context.logger)
      return { loaded: true, movedInternals: loaded.movedInternals }
    } catch (error) {
      return { loaded: false, error: error instanceof Error ? error.message : String(error) }
    }
  },
})

/**
 * The parts with every typed array on a buffer of its own: arrays read from SQLite blobs may be views into a
 * larger (pooled) buffer, which cannot be moved whole; copying here costs this thread, not the host.
 */
function movable(parts: SearchIndexParts): SearchIndexParts {
  const own = <T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(array: T): T =>
    array.byteOffset === 0 && array.byteLength === array.buffer.byteLength ? array : (array.slice() as T)
  const tokens = (index: TokenIndexParts): TokenIndexParts => ({
    text: own(index.text),
    offsets: own(index.offsets),
    starts: own(index.starts),
    postings: own(index.postings),
  })
  return {
    ...parts,
    ids: own(parts.ids),
    status: own(parts.status),
    cycleStart: own(parts.cycleStart),
    cycleCodes: own(parts.cycleCodes),
    defaultOrder: {
      nullRank: parts.defaultOrder.nullRank,
      rank: own(parts.defaultOrder.rank),
      order: own(parts.defaultOrder.order),
      rankStart: own(parts.defaultOrder.rankStart),
    },
    firstNames: tokens(parts.firstNames),
    lastNames: tokens(parts.lastNames),
    identifiers: parts.identifiers.map((column) => ({ ...column, tokens: tokens(column.tokens) })),
  }
}

function typedArraysOf(parts: SearchIndexParts): Array<TermText | Uint32Array | Float64Array> {
  const tokens = (index: TokenIndexParts) => [index.text, index.offsets, index.starts, index.postings]
  const derived = parts.derived
  return [
    ...(derived === undefined ? [] : [derived.statusPresent, derived.cyclePresent, derived.defaultPosition]),
    parts.ids,
    parts.status,
    parts.cycleStart,
    parts.cycleCodes,
    parts.defaultOrder.rank,
    parts.defaultOrder.order,
    parts.defaultOrder.rankStart,
    ...tokens(parts.firstNames),
    ...tokens(parts.lastNames),
    ...parts.identifiers.flatMap((column) => tokens(column.tokens)),
  ]
}
