import { join } from 'node:path'
import type Database from 'better-sqlite3-multiple-ciphers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import {
  SNAPSHOT_PAGE_SIZE,
  SnapshotWriter,
  UPSERT_ROWS_PER_STATEMENT,
} from '../../../../../src/main/core/snapshot/snapshot-writer'
import type { StagedEmployee } from '../../../../../src/main/core/snapshot/snapshot-writer'
import { rowHash } from '../../../../../src/main/core/sync/row-hash'
import { SnapshotBuilder } from '../../../../../src/main/core/sync/snapshot-builder'
import type { PreviousSnapshot } from '../../../../../src/main/core/sync/snapshot-builder'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { TEST_CACHE_KEY, rawDatabase } from '../../../../helpers/test-cache-key'

/**
 * The write path a sync takes for every page (SnapshotBuilder.addPage → SnapshotWriter.writeRows), checked on
 * the file it writes: multi-row upserts in any page size, and what the builder keeps per id instead of per row.
 */
describe('the snapshot write path', () => {
  let dir: string
  let cleanup: () => void
  const opened: Database.Database[] = []
  beforeEach(() => {
    ;({ dir, cleanup } = makeTempDir('write-path'))
  })
  afterEach(() => {
    for (const db of opened.splice(0)) db.close()
    cleanup()
  })

  const readBack = (path: string): Database.Database => {
    const db = rawDatabase(path, { readonly: true, fileMustExist: true })
    opened.push(db)
    return db
  }

  const sealed = async (writer: SnapshotWriter): Promise<Database.Database> => {
    await writer.seal({ columns: [], removed: [], info: {} })
    writer.close()
    return readBack(writer.path)
  }

  const staged = (id: number, tag = ''): StagedEmployee => ({
    id,
    uuid: `UUID-${id}`,
    firstName: id % 3 === 0 ? null : `First${id}${tag}`,
    lastName: `Last${id}`,
    status: id % 2 === 0 ? 'Active' : null,
    payCycleId: id % 5 === 0 ? 'PC-1' : null,
    json: JSON.stringify({ UUID: `UUID-${id}`, tag }),
    hash: rowHash(`${id}${tag}`),
    change: id % 7 === 0 ? 'changed' : 'added',
    changedFields: id % 7 === 0 ? ['tag'] : null,
  })

  const columnsOf = (row: StagedEmployee) => ({
    id: row.id,
    uuid: row.uuid,
    uuid_key: row.uuid.toLowerCase(),
    first_name: row.firstName,
    last_name: row.lastName,
    employee_status: row.status,
    pay_cycle_id: row.payCycleId,
    row_json: row.json,
    row_hash: row.hash,
    change: row.change,
    changed_fields: row.changedFields === null ? null : JSON.stringify(row.changedFields),
  })

  it('writes every column of every row, whatever the page size is next to the rows per statement', async () => {
    const sizes = [
      1,
      UPSERT_ROWS_PER_STATEMENT - 1,
      UPSERT_ROWS_PER_STATEMENT,
      UPSERT_ROWS_PER_STATEMENT + 1,
      137,
    ]
    const writer = SnapshotWriter.create(join(dir, 'pages.sqlite'), TEST_CACHE_KEY)
    const written: StagedEmployee[] = []
    let next = 1
    for (const size of sizes) {
      const page = Array.from({ length: size }, () => staged(next++))
      writer.writeRows(page)
      written.push(...page)
    }
    const db = await sealed(writer)
    expect(db.prepare('SELECT * FROM employees ORDER BY id').all()).toEqual(written.map(columnsOf))
    expect(db.pragma('page_size', { simple: true })).toBe(SNAPSHOT_PAGE_SIZE)
  })

  it('replaces rows in list order, within one statement and across pages, as row-by-row upserts did', async () => {
    const writer = SnapshotWriter.create(join(dir, 'replace.sqlite'), TEST_CACHE_KEY)
    const page = Array.from({ length: UPSERT_ROWS_PER_STATEMENT + 10 }, (_, i) => staged(i + 1))
    // Ids 3 and 55 again later in the same page: one inside the first statement, one in the row-by-row rest.
    page[20] = staged(3, '-second')
    page[UPSERT_ROWS_PER_STATEMENT + 8] = staged(55, '-second')
    writer.writeRows(page)
    writer.writeRows([staged(7, '-next-page')])
    const db = await sealed(writer)
    const json = db.prepare('SELECT row_json FROM employees WHERE id = ?').pluck()
    expect(json.get(3)).toBe(staged(3, '-second').json)
    expect(json.get(55)).toBe(staged(55, '-second').json)
    expect(json.get(7)).toBe(staged(7, '-next-page').json)
  })

  const rowsOf = (count: number, edit: (i: number) => Partial<EmployeeRow> = () => ({})): EmployeeRow[] =>
    Array.from({ length: count }, (_, i) => ({
      UUID: `E-${i}`,
      firstName: `First${i}`,
      lastName: `Last${i}`,
      employeeStatus: 'Active',
      ...edit(i),
    }))

  const previousOf = (rows: readonly EmployeeRow[]): PreviousSnapshot => {
    const json = new Map(rows.map((row) => [String(row['UUID']), JSON.stringify(row)]))
    return {
      runId: 1,
      hashes: new Map([...json].map(([uuid, text]) => [uuid, rowHash(text)])),
      rowJson: (uuid) => json.get(uuid),
      release: () => undefined,
    }
  }

  it('reports changes from the rows as last staged: replaced in a later pass, gone, changed back', async () => {
    const before = rowsOf(30)
    const writer = SnapshotWriter.create(join(dir, 'changes.sqlite'), TEST_CACHE_KEY)
    const builder = new SnapshotBuilder(writer, previousOf(before))
    // Pass 1: E-0 renamed, E-1 with a new status, E-2 changed (but changed back in pass 2), E-29 missing, one new.
    const pass1 = rowsOf(29, (i) =>
      i === 0 ? { firstName: 'Renamed' } : i === 1 || i === 2 ? { employeeStatus: 'On leave' } : {},
    )
    builder.addPage({ pass: 1, page: 1, position: 0, rows: pass1.slice(0, 15) })
    builder.addPage({
      pass: 1,
      page: 2,
      position: 15,
      rows: [...pass1.slice(15), { UUID: 'N-1', lastName: 'New' }],
    })
    // Pass 2 (the list moved): E-0 renamed again, E-2 as before the run, N-1 gone, N-2 new.
    const pass2 = rowsOf(29, (i) =>
      i === 0 ? { firstName: 'Renamed again' } : i === 1 ? { employeeStatus: 'On leave' } : {},
    )
    builder.addPage({ pass: 2, page: 1, position: 0, rows: pass2.slice(0, 15) })
    builder.addPage({
      pass: 2,
      page: 2,
      position: 15,
      rows: [...pass2.slice(15), { UUID: 'N-2', firstName: 'Nia' }],
    })
    const built = builder.finish({ pass: 2, totalCount: 30, limit: 15, pages: 2, uuids: new Set() })

    expect(built.stored).toBe(30)
    expect(built.changes).toMatchObject({
      added: 1,
      changed: 2,
      removed: 1,
      addedSample: [{ UUID: 'N-2', name: 'Nia' }],
      changedSample: [
        { UUID: 'E-0', name: 'Renamed again Last0', fields: ['firstName'] },
        { UUID: 'E-1', name: 'First1 Last1', fields: ['employeeStatus'] },
      ],
      removedSample: [{ UUID: 'E-29', name: 'First29 Last29' }],
    })
    expect(built.changedRows.map((row) => [row.kind, row.changesJson === undefined])).toEqual([
      ['changed', false],
      ['changed', false],
      ['added', true],
    ])
    expect(JSON.parse(built.changedRows[0]?.changesJson ?? 'null')).toEqual([
      { field: 'firstName', before: 'First0', after: 'Renamed again' },
    ])
    await writer.seal({ columns: built.columns, removed: built.removed, info: {} })
    writer.close()
    const db = readBack(writer.path)
    const stored = db
      .prepare('SELECT uuid, change, row_hash, row_json FROM employees ORDER BY id')
      .all() as Array<{
      uuid: string
      change: string | null
      row_hash: number
      row_json: string
    }>
    expect(stored.map((row) => row.uuid)).not.toContain('N-1')
    expect(stored.filter((row) => row.change !== null).map((row) => [row.uuid, row.change])).toEqual([
      ['E-0', 'changed'],
      ['E-1', 'changed'],
      ['N-2', 'added'],
    ])
    for (const row of stored) expect(row.row_hash).toBe(rowHash(row.row_json))
  })

  it('takes snapshot ids far beyond its first allocation (the list position of a late page)', async () => {
    const writer = SnapshotWriter.create(join(dir, 'late.sqlite'), TEST_CACHE_KEY)
    const builder = new SnapshotBuilder(writer, null)
    builder.addPage({ pass: 1, page: 9_000, position: 8_999_000, rows: rowsOf(2) })
    const built = builder.finish({ pass: 1, totalCount: 2, limit: 1_000, pages: 1, uuids: new Set() })
    expect(built.changes.addedSample.map((entry) => entry.name)).toEqual(['First0 Last0', 'First1 Last1'])
    expect(builder.membersOf('PC-1', new Set(['E-1', 'E-9']))).toEqual([{ id: 8_999_002, uuid: 'E-1' }])
    writer.discard()
  })
})
