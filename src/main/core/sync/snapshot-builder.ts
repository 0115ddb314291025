import { changeEntryName, fieldChanges } from '../../../shared/change-rules'
import type { ChangeReport, FieldChange } from '../../../shared/domain/changes'
import type { EmployeeRow } from '../../../shared/domain/rows'
import { ColumnCollector, type ColumnStats } from '../columns/column-inference'
import { rowHash } from './row-hash'
import type { SnapshotReader } from '../snapshot/snapshot-reader'
import { yieldToEventLoop } from '../event-loop'
import type { RemovedEmployee, SnapshotWriter, StagedEmployee } from '../snapshot/snapshot-writer'
import { IndexEncoder } from '../query/index-encoder'
import { SearchIndex } from '../query/search-index'
import type { WalkResult } from './list-walker'
import type { ArrivedPage } from './walk-types'
import { parseStoredRow } from './stored-row'

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
    // A sync starts this beside its first requests (main-list.ts): they go out before the first chunk is read.
    await yieldToEventLoop()
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

/** A staged row's change since the previous snapshot, as kept per snapshot id (`changeOf`). */
const UNCHANGED = 0
const ADDED = 1
const CHANGED = 2
const CHANGE_NAMES = [null, 'added', 'changed'] as const

/** What a changed row keeps for the change report and the run's change log. */
interface FieldChanges {
  readonly fields: readonly string[]
  /** Its field changes (before → after) as JSON. */
  readonly changesJson: string
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
  /**
   * The snapshot id of every staged UUID, in the order first seen (the change report's samples follow it). What
   * the run knows of each row is kept by id in typed arrays rather than an object per row: a first sync stages
   * every employee, and a million small objects cost more to make and collect than to write.
   */
  private readonly idOf = new Map<string, number>()
  /** The pass that last listed the row under this id; 0 where no row is staged. */
  private passOf = new Uint32Array(1024)
  private hashOf = new Float64Array(1024)
  /** UNCHANGED, ADDED or CHANGED. */
  private changeOf = new Uint8Array(1024)
  /** The field changes of rows staged as CHANGED, by id. */
  private readonly fieldChanges = new Map<number, FieldChanges>()
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
    return this.idOf.size
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
      const id = this.idOf.get(uuid)
      if (id === undefined) continue
      members.push({ id, uuid })
      this.encoder.addMembership(id, payCycleId)
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
    for (const [uuid, id] of this.idOf) {
      if (this.passOf[id] !== final.pass) {
        gone.push(id)
        this.idOf.delete(uuid)
        this.passOf[id] = 0
        this.fieldChanges.delete(id)
        this.encoder.delete(id)
      }
    }
    if (gone.length > 0) this.writer.deleteRows(gone)
    const removed = this.removedSincePrevious()
    return {
      stored: this.idOf.size,
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
    const existing = this.idOf.get(uuid)
    if (existing !== undefined) {
      this.passOf[existing] = this.pass
      if (this.hashOf[existing] === hash) return null
    }
    const id = existing ?? positionId ?? this.maxId + 1
    if (id > this.maxId) this.maxId = id
    if (existing === undefined) {
      this.ensureId(id)
      this.idOf.set(uuid, id)
    }
    const previousHash = this.previous?.hashes.get(uuid)
    const change = previousHash === undefined ? ADDED : previousHash === hash ? UNCHANGED : CHANGED
    this.passOf[id] = this.pass
    this.hashOf[id] = hash
    this.changeOf[id] = change
    let fields: readonly string[] | null = null
    if (change === CHANGED) {
      const changes = changesSince(this.previous?.rowJson(uuid), row)
      fields = changes.map((c) => c.field)
      this.fieldChanges.set(id, { fields, changesJson: JSON.stringify(changes) })
    } else if (existing !== undefined) {
      this.fieldChanges.delete(id)
    }
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
      change: CHANGE_NAMES[change],
      changedFields: fields,
    }
  }

  /** Grows the per-id arrays to hold `id` (ids are positive integers, at most the list's claimed length). */
  private ensureId(id: number): void {
    if (!Number.isSafeInteger(id) || id < 1) throw new RangeError('snapshot ids are positive integers')
    if (id < this.passOf.length) return
    let size = this.passOf.length
    while (size <= id) size *= 2
    this.passOf = grown(this.passOf, new Uint32Array(size))
    this.hashOf = grown(this.hashOf, new Float64Array(size))
    this.changeOf = grown(this.changeOf, new Uint8Array(size))
  }

  private removedSincePrevious(): RemovedEmployee[] {
    if (this.previous === null) return []
    const removed: RemovedEmployee[] = []
    for (const uuid of this.previous.hashes.keys()) {
      if (this.idOf.has(uuid)) continue
      const json = this.previous.rowJson(uuid) ?? JSON.stringify({ UUID: uuid })
      removed.push({ uuid, name: displayName(parseStoredRow(json) ?? { UUID: uuid }), json })
    }
    return removed
  }

  private changedRows(): ChangedRow[] {
    const rows: ChangedRow[] = []
    for (let id = 1; id <= this.maxId; id++) {
      if (this.passOf[id] === 0) continue
      const change = this.changeOf[id]
      if (change === ADDED) rows.push({ id, kind: 'added' })
      else if (change === CHANGED) {
        const changesJson = this.fieldChanges.get(id)?.changesJson
        rows.push({ id, kind: 'changed', ...(changesJson === undefined ? {} : { changesJson }) })
      }
    }
    return rows
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
    const addedIds: Array<[string, number]> = []
    const changedIds: Array<[string, number]> = []
    for (const [uuid, id] of this.idOf) {
      const change = this.changeOf[id]
      if (change === ADDED) {
        report.added++
        if (addedIds.length < CHANGE_SAMPLE_SIZE) addedIds.push([uuid, id])
      } else if (change === CHANGED) {
        report.changed++
        if (changedIds.length < CHANGE_SAMPLE_SIZE) changedIds.push([uuid, id])
      }
    }
    // Names only for the samples, from the rows as written: naming every staged row cost a first sync more.
    const names = this.namesOf([...addedIds, ...changedIds].map(([, id]) => id))
    for (const [uuid, id] of addedIds) report.addedSample.push({ UUID: uuid, name: names.get(id) ?? uuid })
    for (const [uuid, id] of changedIds) {
      report.changedSample.push({
        UUID: uuid,
        name: names.get(id) ?? uuid,
        fields: [...(this.fieldChanges.get(id)?.fields ?? [])],
      })
    }
    return report
  }

  /** "First Last" of the rows written under these ids. */
  private namesOf(ids: readonly number[]): Map<number, string> {
    const names = new Map<number, string>()
    this.writer.rowsJson(ids).forEach((json, i) => {
      const row = json === undefined ? null : parseStoredRow(json)
      if (row !== null) names.set(ids[i] as number, displayName(row))
    })
    return names
  }
}

function sample<T extends { name: string }>(items: T[]): T[] {
  return items.slice(0, CHANGE_SAMPLE_SIZE)
}

function grown<T extends Uint8Array | Uint32Array | Float64Array>(from: T, to: T): T {
  to.set(from)
  return to
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
