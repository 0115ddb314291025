import { CHANGE_HISTORY_RUNS } from '../../../shared/change-rules'
import type {
  ChangeEntry,
  ChangeHistoryEntry,
  ChangeKind,
  ChangeListOptions,
  ChangeListPage,
  ChangeReport,
} from '../../../shared/domain/changes'
import type { CacheDatabase } from '../cache/cache-database'
import { ChangeLogReader } from '../cache/change-log-file'
import type { CompleteRunRow } from '../cache/change-log-catalog'
import { storageError } from '../sqlite/sqlite-open'
import { RosterDeskError } from '../errors'
import type { QueryEngine } from '../query/query-engine'

/** The largest window of entries one request may ask for (the contract's bound too). */
export const MAX_CHANGE_WINDOW = 1000

/** Every entry of one sync, kind by kind, for an export; holds its change log open until `close`. */
export interface ChangeEntrySource {
  readonly counts: Readonly<Record<ChangeKind, number>>
  /** The column the run read employee numbers from, when the data had one. */
  readonly numberColumn?: string
  /** Read here, or (on the core worker) asked of the thread that opened the source, a batch at a time. */
  batches(kind: ChangeKind, batchSize: number): Iterable<ChangeEntry[]> | AsyncIterable<ChangeEntry[]>
  close(): void
}

export interface ChangeHistoryDeps {
  readonly cache: CacheDatabase
  /** Reads the current snapshot's own change lists, for a run without a change log (see `entries`). */
  readonly queries: Pick<QueryEngine, 'listChanges'>
}

/**
 * The change report a clerk reconciles with: the last CHANGE_HISTORY_RUNS complete syncs, each with its counts and
 * where it read from, and every employee each one added, removed or changed, a window at a time.
 *
 * A run's entries come from its change log (cache/change-log-file.ts). A run without one can still be listed when
 * it is the run whose snapshot the cache holds, from that snapshot's own change lists: a first sync (its "added"
 * list is everyone), or the last sync of a cache written before change logs existed.
 */
export class ChangeHistory {
  constructor(private readonly deps: ChangeHistoryDeps) {}

  /** The newest complete syncs first. */
  list(): ChangeHistoryEntry[] {
    const cache = this.deps.cache
    const runs = this.guard(() => cache.changeLogs.completeRuns())
    const oldest = runs.at(-1)?.id
    const current = cache.currentSnapshotInfo()?.runId
    return runs
      .slice(0, CHANGE_HISTORY_RUNS)
      .map((run) => this.entryOf(run, run.id === oldest, run.id === current))
  }

  /** One sync of the history, or a clear error when it is not (or no longer) in it. */
  run(runId: number): ChangeHistoryEntry {
    const entry = this.list().find((candidate) => candidate.runId === runId)
    if (entry === undefined) {
      throw new RosterDeskError(
        'not-found',
        'That sync is no longer in the change history. Choose another one from the list.',
      )
    }
    return entry
  }

  /** One sync of the history, with the `statusFilter` it read the service with (its run log's), if any. */
  describe(runId: number): { readonly run: ChangeHistoryEntry; readonly statusFilter?: string } {
    const run = this.run(runId)
    const statusFilter = this.guard(() => this.deps.cache.runs.log.settingsOf(runId)?.statusFilter)
    return statusFilter === undefined ? { run } : { run, statusFilter }
  }

  /**
   * A window of one sync's added, removed or changed employees, in name order or searched and sorted as `options`
   * says (change-log-file.ts `changeListSql`), with the total the search finds. A sync without a change log of its
   * own (a cache synced before they were kept) lists in name order only: searching or sorting it is refused.
   */
  page(
    runId: number,
    kind: ChangeKind,
    offset: number,
    limit: number,
    options: ChangeListOptions = {},
  ): ChangeListPage {
    if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(limit) || limit < 1) {
      throw new RosterDeskError('validation', 'The change list window is not valid.')
    }
    if (limit > MAX_CHANGE_WINDOW) {
      throw new RosterDeskError('validation', 'The change list window is not valid.')
    }
    this.run(runId)
    const path = this.guard(() => this.deps.cache.changeLogPath(runId))
    if (path !== undefined) {
      const reader = ChangeLogReader.open(path, this.deps.cache.key)
      try {
        const searched = (options.search ?? '').trim() !== ''
        return {
          total: searched ? reader.count(kind, options.search) : reader.counts()[kind],
          items: reader.page(kind, offset, limit, options),
        }
      } finally {
        reader.close()
      }
    }
    const nameOrder =
      options.sort === undefined || (options.sort.column === 'name' && options.sort.order === 'asc')
    if ((options.search ?? '').trim() !== '' || !nameOrder) {
      throw new RosterDeskError(
        'validation',
        'The report of this sync was saved before it could be searched or sorted. It lists employees by name.',
        { detail: `run ${runId} has no change log` },
      )
    }
    if (this.isCurrent(runId)) return this.deps.queries.listChanges(kind, offset, limit)
    return { total: 0, items: [] }
  }

  /** The window of the latest complete sync (the `employees:changes` channel and `cli changes` without --run). */
  latestPage(kind: ChangeKind, offset: number, limit: number): ChangeListPage {
    const latest = this.list()[0]
    if (latest === undefined) {
      if (!Number.isSafeInteger(offset) || offset < 0 || limit < 1 || limit > MAX_CHANGE_WINDOW) {
        throw new RosterDeskError('validation', 'The change list window is not valid.')
      }
      return { total: 0, items: [] }
    }
    return this.page(latest.runId, kind, offset, limit)
  }

  /** Every entry of one sync, for an export; the caller closes it. */
  entries(runId: number): ChangeEntrySource {
    const run = this.run(runId)
    const path = this.guard(() => this.deps.cache.changeLogPath(runId))
    if (path !== undefined) {
      const reader = ChangeLogReader.open(path, this.deps.cache.key)
      try {
        const numberColumn = reader.info('number_column')
        return {
          counts: reader.counts(),
          ...(numberColumn === undefined || numberColumn === '' ? {} : { numberColumn }),
          batches: (kind, batchSize) => reader.batches(kind, batchSize),
          close: () => reader.close(),
        }
      } catch (error) {
        reader.close()
        throw error
      }
    }
    const listed = this.isCurrent(runId)
    const counts = {
      added: listed ? run.added : 0,
      removed: listed ? run.removed : 0,
      changed: listed ? run.changed : 0,
    }
    const queries = this.deps.queries
    return {
      counts,
      *batches(kind, batchSize) {
        for (let offset = 0; offset < counts[kind]; offset += batchSize) {
          const page = queries.listChanges(kind, offset, Math.min(batchSize, MAX_CHANGE_WINDOW))
          if (page.items.length === 0) return
          yield page.items
        }
      },
      close: () => undefined,
    }
  }

  private entryOf(run: CompleteRunRow, oldest: boolean, current: boolean): ChangeHistoryEntry {
    const cache = this.deps.cache
    const report: ChangeReport | undefined = this.guard(() => cache.runs.log.get(run.id)?.changes)
    const settings = this.guard(() => cache.runs.log.settingsOf(run.id))
    // Reports from before `firstSync` was recorded: the oldest sync the log remembers, which only added.
    const firstSync =
      report?.firstSync ?? (oldest && report !== undefined && report.removed === 0 && report.changed === 0)
    const serviceAddress = settings?.baseUrl === '' ? undefined : settings?.baseUrl
    const environment = settings?.environment
    return {
      runId: run.id,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      employeeCount: run.stored,
      firstSync,
      added: report?.added ?? 0,
      removed: report?.removed ?? 0,
      changed: report?.changed ?? 0,
      entriesKept: !firstSync && (run.changesFile !== null || (current && report !== undefined)),
      ...(environment === undefined ? {} : { environment }),
      ...(serviceAddress === undefined ? {} : { serviceAddress }),
      ...(settings?.tenantId === undefined || settings.tenantId === ''
        ? {}
        : { tenantId: settings.tenantId }),
    }
  }

  private isCurrent(runId: number): boolean {
    return this.guard(() => this.deps.cache.currentSnapshotInfo()?.runId === runId)
  }

  private guard<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      throw storageError(error, this.deps.cache.path)
    }
  }
}
