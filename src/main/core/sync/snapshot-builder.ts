import { changeEntryName, fieldChanges } from '../../../shared/change-rules'
import type { ChangeReport, EmployeeRow, FieldChange } from '../../../shared/domain'
import { ColumnCollector } from '../cache/column-inference'
import { rowHash } from '../cache/row-hash'
import type { SnapshotReader } from '../snapshot/snapshot-reader'
import { yieldToEventLoop } from '../event-loop'
import type {
  ColumnStats,
  RemovedEmployee,
  SnapshotWriter,
  StagedEmployee,
} from '../snapshot/snapshot-writer'
import { IndexEncoder } from '../query/index-encoder'
import { SearchIndex } from '../query/search-index'
import type { ArrivedPage, WalkResult } from './list-walker'
import { parseStoredRow } from '../cache/stored-row'

/** How many names of each change list the summary carries; the full lists stay queryable in the snapshot. */
export const CHANGE_SAMPLE_SIZE = 20

/** What the run needs from the snapshot it replaces: a fingerprint per employee, and old rows on demand. */
export interface PreviousSnapshot {
  readonly runId: number
  readonly hashes: ReadonlyMap<string, number>
  rowJson(uuid: string): string | undefined
  /** Lets the snapshot's file go once the run no longer needs it. */
  release(): void
}

/** Rows read per step when loading fingerprints; the event loop runs between steps. */
const FINGERPRINT_CHUNK = 20_000

/**
 * Reads the fingerprints of the current snapshot (one narrow scan, in chunks so a large cache does not hold the
 * event loop) and keeps the file open for the run.
 */
export async function loadPreviousSnapshot(reader: SnapshotReader | null): Promise<PreviousSnapshot | null> {
  if (reader === null) return null
  const release = reader.retain()
  try {
    const hashes = new Map<string, number>()
    let after = 0
    for (;;) {
      const rows = reader.fingerprints(after, FINGERPRINT_CHUNK)
      for (const [, uuid, hash] of rows) hashes.set(uuid, hash)
      const last = rows.at(-1)
      if (last === undefined || rows.length < FINGERPRINT_CHUNK) break
      after = last[0]
      await yieldToEventLoop()
    }
    return {
      runId: reader.runId,
      hashes,
      rowJson: (uuid) => reader.rowJsonOf(uuid),
      release,
    }
  } catch (error) {
    release()
    throw error
  }
}

interface Entry {
  id: number
  pass: number
  hash: number
  change: 'added' | 'changed' | null
  name: string | null
  fields: readonly string[] | null
  /** For a changed row: its field changes (before → after) as JSON, kept for the run's change log. */
  changesJson: string | null
}

/** A row this run added or changed, as the change log needs it (its facts are read back from the snapshot). */
export interface ChangedRow {
  readonly id: number
  readonly kind: 'added' | 'changed'
  /** Changed rows: FieldChange[] as JSON. */
  readonly changesJson?: string
}

export interface BuiltSnapshot {
  readonly stored: number
  readonly changes: ChangeReport
  readonly removed: readonly RemovedEmployee[]
  readonly columns: readonly ColumnStats[]
  /** No previous snapshot: every row is new, and there are no changes to log. */
  readonly firstSync: boolean
  /** Rows added or changed since the previous snapshot, in snapshot order (empty for a first sync). */
  readonly changedRows: readonly ChangedRow[]
}

/**
 * Turns arriving pages into snapshot rows, writing each page as it comes so storage overlaps the network.
 * Rows are keyed by UUID: a row seen again (pages shifted, or a later pass) replaces its earlier version in
 * place, and `finish` deletes every row the final pass did not contain.
 */
export class SnapshotBuilder {
  private readonly entries = new Map<string, Entry>()
  private maxId = 0
  private pass = 0
  private collector = new ColumnCollector()
  private readonly encoder = new IndexEncoder()
  private built: { readonly version: number; readonly index: SearchIndex } | null = null

  constructor(
    private readonly writer: SnapshotWriter,
    private readonly previous: PreviousSnapshot | null,
  ) {}

  /** Rows currently staged (distinct UUIDs across passes so far). */
  get staged(): number {
    return this.entries.size
  }

  /** Stages one page in one short transaction. */
  addPage(page: ArrivedPage): void {
    if (page.pass !== this.pass) {
      // Columns are counted over the final pass only, which holds every employee.
      this.pass = page.pass
      this.collector = new ColumnCollector()
    }
    const staged: StagedEmployee[] = []
    page.rows.forEach((row, index) => {
      this.collector.observe(row)
      const staging = this.stage(row, page.pass === 1 ? page.position + index + 1 : undefined)
      if (staging !== null) staged.push(staging)
    })
    if (staged.length > 0) this.writer.writeRows(staged)
  }

  /**
   * The snapshot ids of a pay cycle's members (UUIDs the snapshot lacks are skipped), recorded for the search
   * index too.
   */
  membersOf(payCycleId: string, uuids: ReadonlySet<string>): Array<{ id: number; uuid: string }> {
    const members: Array<{ id: number; uuid: string }> = []
    for (const uuid of uuids) {
      const entry = this.entries.get(uuid)
      if (entry === undefined) continue
      members.push({ id: entry.id, uuid })
      this.encoder.addMembership(entry.id, payCycleId)
    }
    return members
  }

  /** The query engine's index of the snapshot as staged: call after `finish` and the pay cycles. */
  searchIndex(): SearchIndex {
    if (this.built?.version !== this.encoder.version) {
      this.built = { version: this.encoder.version, index: SearchIndex.fromEncoded(this.encoder.encode()) }
    }
    return this.built.index
  }

  /**
   * Work the commit would do, done while the list's last request (the second look at page 1) is still on the
   * network: the SQL indexes (kept current by SQLite if rows change afterwards) and the search index (rebuilt
   * at commit only if anything was staged since). Saves the commit most of its time in the usual case; the
   * event loop runs between the steps, so the app keeps answering.
   */
  async prepareCommit(): Promise<void> {
    await this.writer.buildIndexes()
    await yieldToEventLoop()
    if (this.built?.version === this.encoder.version) return
    const version = this.encoder.version
    const index = await SearchIndex.fromEncodedInSteps(this.encoder.encode(), yieldToEventLoop)
    // Rows staged while the steps ran make this index stale; the commit then builds it again.
    if (this.encoder.version === version) this.built = { version, index }
  }

  /** Drops rows the final pass proved gone and works out what changed since the previous snapshot. */
  finish(final: WalkResult): BuiltSnapshot {
    const gone: number[] = []
    for (const [uuid, entry] of this.entries) {
      if (entry.pass !== final.pass) {
        gone.push(entry.id)
        this.entries.delete(uuid)
        this.encoder.delete(entry.id)
      }
    }
    if (gone.length > 0) this.writer.deleteRows(gone)
    const removed = this.removedSincePrevious()
    return {
      stored: this.entries.size,
      changes: this.changeReport(removed),
      removed,
      columns: this.collector.columns(),
      firstSync: this.previous === null,
      changedRows: this.previous === null ? [] : this.changedRows(),
    }
  }

  private stage(row: EmployeeRow, positionId: number | undefined): StagedEmployee | null {
    const uuid = String(row['UUID'])
    const json = JSON.stringify(row)
    const hash = rowHash(json)
    const existing = this.entries.get(uuid)
    if (existing !== undefined) {
      existing.pass = this.pass
      if (existing.hash === hash) return null
    }
    const id = existing?.id ?? positionId ?? this.maxId + 1
    if (id > this.maxId) this.maxId = id
    const previousHash = this.previous?.hashes.get(uuid)
    const change = previousHash === undefined ? 'added' : previousHash === hash ? null : 'changed'
    const changes = change === 'changed' ? changesSince(this.previous?.rowJson(uuid), row) : null
    const fields = changes === null ? null : changes.map((c) => c.field)
    this.entries.set(uuid, {
      id,
      pass: this.pass,
      hash,
      change,
      name: change === null ? null : displayName(row),
      fields,
      changesJson: changes === null ? null : JSON.stringify(changes),
    })
    const firstName = textField(row, 'firstName')
    const lastName = textField(row, 'lastName')
    const status = textField(row, 'employeeStatus')
    const payCycleId = textField(row, 'payCycleId')
    this.encoder.set(id, firstName, lastName, status, payCycleId, row)
    return {
      id,
      uuid,
      firstName,
      lastName,
      status,
      payCycleId,
      json,
      hash,
      change,
      changedFields: fields,
    }
  }

  private removedSincePrevious(): RemovedEmployee[] {
    if (this.previous === null) return []
    const removed: RemovedEmployee[] = []
    for (const uuid of this.previous.hashes.keys()) {
      if (this.entries.has(uuid)) continue
      const json = this.previous.rowJson(uuid) ?? JSON.stringify({ UUID: uuid })
      removed.push({ uuid, name: displayName(parseStoredRow(json) ?? { UUID: uuid }), json })
    }
    return removed
  }

  private changedRows(): ChangedRow[] {
    const rows: ChangedRow[] = []
    for (const entry of this.entries.values()) {
      if (entry.change === 'added') rows.push({ id: entry.id, kind: 'added' })
      else if (entry.change === 'changed')
        rows.push({
          id: entry.id,
          kind: 'changed',
          ...(entry.changesJson === null ? {} : { changesJson: entry.changesJson }),
        })
    }
    return rows.sort((a, b) => a.id - b.id)
  }

  private changeReport(removed: readonly RemovedEmployee[]): ChangeReport {
    const report: ChangeReport = {
      added: 0,
      removed: removed.length,
      changed: 0,
      addedSample: [],
      removedSample: sample(removed.map((r) => ({ UUID: r.uuid, name: r.name }))),
      changedSample: [],
      firstSync: this.previous === null,
    }
    for (const [uuid, entry] of this.entries) {
      if (entry.change === 'added') {
        report.added++
        if (report.addedSample.length < CHANGE_SAMPLE_SIZE)
          report.addedSample.push({ UUID: uuid, name: entry.name ?? uuid })
      } else if (entry.change === 'changed') {
        report.changed++
        if (report.changedSample.length < CHANGE_SAMPLE_SIZE) {
          report.changedSample.push({
            UUID: uuid,
            name: entry.name ?? uuid,
            fields: [...(entry.fields ?? [])],
          })
        }
      }
    }
    return report
  }
}

function sample<T extends { name: string }>(items: T[]): T[] {
  return items.slice(0, CHANGE_SAMPLE_SIZE)
}

function textField(row: EmployeeRow, key: string): string | null {
  const value = row[key]
  return typeof value === 'string' ? value : null
}

/** "First Last" for change lists (the change report's rule, shared with everything that names an entry). */
export const displayName = changeEntryName

/**
 * What changed in a row since the previous snapshot, field by field (shared rule: change-rules.ts). An unreadable
 * previous row counts every field as new.
 */
function changesSince(previousJson: string | undefined, row: EmployeeRow): FieldChange[] {
  const before = previousJson === undefined ? null : parseStoredRow(previousJson)
  return fieldChanges(before ?? {}, row)
}
