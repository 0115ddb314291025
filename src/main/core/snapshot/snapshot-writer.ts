import type { ColumnInfo } from '../../../shared/domain/rows'
import { yieldToEventLoop } from '../event-loop'
import { createRunFileWriter, RunFileWriter } from '../sqlite/run-file-writer'
import type { CacheKey } from '../sqlite/cache-key'
import { fsyncFileAsync } from '../durable-fs'
import { SNAPSHOT_INDEXES, SNAPSHOT_TABLES, stampSnapshot } from './snapshot-schema'
import type { SqliteDatabase } from '../sqlite/sqlite-open'
import type Database from 'better-sqlite3-multiple-ciphers'

/**
 * The snapshot's page size. Twice SQLite's default: a page of rows is written in half the system calls, the
 * UUID index is built over half the pages, and the stored index's blobs are read through half the overflow
 * pages; measured at 100,000 rows, the file is 5% smaller and its quick_check at open a quarter to a third
 * faster, row windows and UUID look-ups unchanged within this machine's noise. Readers take the page size from
 * the file's header, so older snapshots (4 KiB) read as before.
 */
export const SNAPSHOT_PAGE_SIZE = 8192

/** Pages written between background flushes to disk. */
const FLUSH_EVERY_BATCHES = 32

/**
 * Rows per multi-row upsert (11 parameters each, far below SQLite's limit of 32,766). One statement step per 50
 * rows instead of per row: better-sqlite3's cost per call (binding, stepping, resetting, the result object) was
 * about a sixth of the time a page's rows took to write.
 */
export const UPSERT_ROWS_PER_STATEMENT = 50

const EMPLOYEE_COLUMNS = `(id, uuid, uuid_key, first_name, last_name, employee_status, pay_cycle_id, row_json, row_hash,
  change, changed_fields)`
const EMPLOYEE_VALUES = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
const PARAMETERS_PER_ROW = 11

function upsertSql(rows: number): string {
  return `INSERT OR REPLACE INTO employees ${EMPLOYEE_COLUMNS} VALUES ${Array<string>(rows).fill(EMPLOYEE_VALUES).join(', ')}`
}

/** One employee as the snapshot stores it. `id` orders rows as the service listed them. */
export interface StagedEmployee {
  readonly id: number
  readonly uuid: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly status: string | null
  readonly payCycleId: string | null
  /** The row exactly as the service sent it, as JSON text. */
  readonly json: string
  readonly hash: number
  readonly change: 'added' | 'changed' | null
  /** Field names that differ from the previous snapshot, for changed rows. */
  readonly changedFields: readonly string[] | null
}

export interface RemovedEmployee {
  readonly uuid: string
  readonly name: string
  readonly json: string
}

/**
 * A column as the snapshot's `columns` table records it: the column, and in how many rows it holds a value. The
 * sync's ColumnCollector reports them (as ColumnStats, columns/column-inference.ts, which the renderer tests' fake
 * reads without this module); this store does not import it, since the cache imports the snapshot store, never the
 * other way.
 */
export interface SealedColumn extends ColumnInfo {
  readonly present: number
}

/** What a run knows only when every page is in: written just before the file is sealed. */
export interface SnapshotSeal {
  readonly columns: readonly SealedColumn[]
  readonly removed: readonly RemovedEmployee[]
  readonly info: Readonly<Record<string, string>>
  /** The query engine's index of this snapshot, as named blobs (see core/query/stored-index.ts). */
  readonly searchIndex?: ReadonlyArray<{ readonly part: string; readonly data: Buffer }>
}

/**
 * Writes one new snapshot file. Until `seal` the file is private to the run: no journal (a crash leaves only
 * debris the next sweep deletes, never a half-snapshot anyone reads), no fsync per batch, and an exclusive lock
 * held for the writer's whole life so sweeps in other processes can tell it is alive.
 */
export class SnapshotWriter extends RunFileWriter {
  private readonly upsert: Database.Statement
  private readonly upsertMany: Database.Statement
  /** The parameters of one multi-row upsert, reused for every statement of the run. */
  private readonly manyParameters: unknown[] = new Array<unknown>(
    UPSERT_ROWS_PER_STATEMENT * PARAMETERS_PER_ROW,
  )
  private readonly remove: Database.Statement
  private readonly addMember: Database.Statement
  private readonly rowJsonById: Database.Statement
  private indexing: Promise<void> | null = null
  private batchesSinceFlush = 0
  private flushing: Promise<void> | null = null

  private constructor(path: string, db: SqliteDatabase) {
    super(path, db)
    this.upsert = db.prepare(upsertSql(1))
    this.upsertMany = db.prepare(upsertSql(UPSERT_ROWS_PER_STATEMENT))
    this.remove = db.prepare('DELETE FROM employees WHERE id = ?')
    this.addMember = db.prepare(
      'INSERT OR IGNORE INTO pay_cycle_members (pay_cycle_id, employee_id, employee_uuid) VALUES (?, ?, ?)',
    )
    this.rowJsonById = db.prepare('SELECT row_json FROM employees WHERE id = ?').pluck()
  }

  /** Creates the file (replacing debris of the same name) and its tables. */
  static create(path: string, key: CacheKey): SnapshotWriter {
    return createRunFileWriter(path, key, (db) => {
      // Set before the first table exists, which is when SQLite fixes a file's page size.
      db.pragma(`page_size = ${SNAPSHOT_PAGE_SIZE}`)
      db.pragma('cache_size = -65536')
      db.exec(SNAPSHOT_TABLES)
      return new SnapshotWriter(path, db)
    })
  }

  /** Inserts or replaces a batch of rows in one transaction (one page: a few milliseconds of blocking). */
  writeRows(rows: readonly StagedEmployee[]): void {
    this.flushNowAndThen()
    this.guard(() =>
      this.db.transaction(() => {
        // In list order, as row-by-row upserts would: a later row with the same id replaces an earlier one.
        const parameters = this.manyParameters
        let next = 0
        for (; next + UPSERT_ROWS_PER_STATEMENT <= rows.length; next += UPSERT_ROWS_PER_STATEMENT) {
          for (let i = 0; i < UPSERT_ROWS_PER_STATEMENT; i++) {
            putRow(parameters, i * PARAMETERS_PER_ROW, rows[next + i] as StagedEmployee)
          }
          this.upsertMany.run(parameters)
        }
        const one = new Array<unknown>(PARAMETERS_PER_ROW)
        for (; next < rows.length; next++) {
          putRow(one, 0, rows[next] as StagedEmployee)
          this.upsert.run(one)
        }
      })(),
    )
  }

  /** The rows written under these ids, as JSON text (undefined where none is), in the same order. */
  rowsJson(ids: readonly number[]): Array<string | undefined> {
    return this.guard(() =>
      ids.map((id) => {
        const json: unknown = this.rowJsonById.get(id)
        return typeof json === 'string' ? json : undefined
      }),
    )
  }

  /** Removes rows a later pass proved gone. */
  deleteRows(ids: readonly number[]): void {
    this.guard(() =>
      this.db.transaction(() => {
        for (const id of ids) this.remove.run(id)
      })(),
    )
  }

  addPayCycleMembers(
    payCycleId: string,
    members: ReadonlyArray<{ readonly id: number; readonly uuid: string }>,
  ): void {
    this.guard(() =>
      this.db.transaction(() => {
        for (const member of members) this.addMember.run(payCycleId, member.id, member.uuid)
      })(),
    )
  }

  /**
   * Writes the run's summary tables, builds the indexes once over all rows, marks the file as a complete
   * snapshot and forces it to disk. The exclusive lock is kept until `close`, after the catalog commit.
   */
  async seal(seal: SnapshotSeal): Promise<void> {
    // Separate steps with the event loop free in between: whichever thread seals (the core worker in the app, the
    // CLI's own) keeps answering its messages while the last (and largest) pieces of work are done, each at most
    // one index build long.
    this.guard(() =>
      this.db.transaction(() => {
        const column = this.db.prepare(
          'INSERT INTO columns (position, key, label, kind, known, present) VALUES (?, ?, ?, ?, ?, ?)',
        )
        seal.columns.forEach((c, position) =>
          column.run(position, c.key, c.label, c.kind, c.known ? 1 : 0, c.present),
        )
        const removed = this.db.prepare(
          'INSERT OR REPLACE INTO removed_employees (uuid, name, row_json) VALUES (?, ?, ?)',
        )
        for (const r of seal.removed) removed.run(r.uuid, r.name, r.json)
        const part = this.db.prepare('INSERT OR REPLACE INTO search_index (part, data) VALUES (?, ?)')
        for (const p of seal.searchIndex ?? []) part.run(p.part, p.data)
        const info = this.db.prepare('INSERT OR REPLACE INTO snapshot_info (key, value) VALUES (?, ?)')
        for (const [key, value] of Object.entries(seal.info)) info.run(key, value)
      })(),
    )
    await this.buildIndexes()
    // Last: only a file with every row, table and index in place is marked as a snapshot.
    this.guard(() => stampSnapshot(this.db))
    if (this.flushing !== null) await this.flushing
    await this.syncToDisk()
  }

  /**
   * Builds the snapshot's indexes (once: later calls share the first), one sorted build each with the event
   * loop free in between. Rows written afterwards keep them current, so this can run before the last rows are
   * in. Also starts a background flush, so the seal's fsync has less left to write.
   */
  buildIndexes(): Promise<void> {
    this.indexing ??= (async () => {
      for (const statement of SNAPSHOT_INDEXES) {
        await yieldToEventLoop()
        this.guard(() => this.db.exec(statement))
      }
      this.batchesSinceFlush = FLUSH_EVERY_BATCHES
      this.flushNowAndThen()
    })()
    return this.indexing
  }

  /**
   * Every few dozen pages, flushes what is written so far in the background (thread pool), so the fsync that
   * seals the snapshot has little left to write and the sync's last step stays short.
   */
  private flushNowAndThen(): void {
    if (++this.batchesSinceFlush < FLUSH_EVERY_BATCHES || this.flushing !== null) return
    this.batchesSinceFlush = 0
    this.flushing = fsyncFileAsync(this.path)
      .catch(() => undefined)
      .finally(() => {
        this.flushing = null
      })
  }
}

/** One row's upsert parameters, in EMPLOYEE_COLUMNS order, written into `into` from `at`. */
function putRow(into: unknown[], at: number, row: StagedEmployee): void {
  into[at] = row.id
  into[at + 1] = row.uuid
  into[at + 2] = row.uuid.toLowerCase()
  into[at + 3] = row.firstName
  into[at + 4] = row.lastName
  into[at + 5] = row.status
  into[at + 6] = row.payCycleId
  into[at + 7] = row.json
  into[at + 8] = row.hash
  into[at + 9] = row.change
  into[at + 10] = row.changedFields === null ? null : JSON.stringify(row.changedFields)
}
