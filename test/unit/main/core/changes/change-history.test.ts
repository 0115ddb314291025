import { cpSync, existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { ChangeLogReader, type ChangeLogRecord } from '../../../../../src/main/core/cache/change-log-file'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { CATALOG_VERSION } from '../../../../../src/main/core/cache/catalog-schema'
import { ChangeHistory } from '../../../../../src/main/core/changes/change-history'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'
import { TEST_CACHE_KEY, encryptFixtureCopy, rawDatabase } from '../../../../helpers/test-cache-key'

/** A cache written by RosterDesk before change logs existed (catalog version 2); see its README. */
const FIXTURE_V2 = resolve(__dirname, '../../../../fixtures/cache-v2')

function staff(n: number, lastName: string, extra: EmployeeRow = {}): EmployeeRow {
  const number = String(n).padStart(4, '0')
  return employee(`u-${number}`, `First${n}`, lastName, 'Active', {
    employeeNumber: number,
    payCycleId: 'PC-A',
    grade: 3,
    ...extra,
  })
}

describe('the change history', () => {
  let dir: string
  let cleanup: () => void
  let cache: CacheDatabase
  let history: ChangeHistory
  const open = (path: string): void => {
    cache = openCacheDatabase(path, { key: TEST_CACHE_KEY })
    history = new ChangeHistory({ cache, queries: new QueryEngine(cache) })
  }
  beforeEach(() => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-history-'))
    open(join(dir, 'cache.db'))
  })
  afterEach(() => {
    cache.close()
    cleanup()
  })
  const logFiles = (): string[] =>
    existsSync(cache.changeLogDirectory) ? readdirSync(cache.changeLogDirectory).sort() : []

  /** A sealed change log of these records, then changed behind the reader's back by `sql`; opened to read. */
  const sealedLogAltered = async (records: ChangeLogRecord[], sql: string): Promise<ChangeLogReader> => {
    await seedSnapshot(cache, FIRST)
    const log = cache.runs.createChangeLog(new Date())
    log.write(records)
    await log.seal({})
    log.close()
    const file = rawDatabase(log.path)
    file.exec(sql)
    file.close()
    return ChangeLogReader.open(log.path, TEST_CACHE_KEY)
  }

  const FIRST = [staff(1, 'Adams'), staff(2, 'Baker'), staff(3, 'Clark'), staff(4, 'Dunn'), staff(5, 'Evans')]

  it('says a first sync is one, and logs no changes for it', async () => {
    const first = await seedSnapshot(cache, FIRST)
    expect(first.changes).toMatchObject({ firstSync: true, added: 5 })
    expect(history.list()).toEqual([
      expect.objectContaining({
        runId: first.id,
        firstSync: true,
        entriesKept: false,
        employeeCount: 5,
        added: 5,
        removed: 0,
        changed: 0,
      }),
    ])
    expect(logFiles()).toEqual([])
  })

  it('keeps who a sync added, removed and changed: number, name, status, pay cycle, and each field before → after', async () => {
    const first = await seedSnapshot(cache, FIRST)
    const next = [
      FIRST[0]!,
      { ...FIRST[2]!, employeeStatus: 'On leave', payCycleId: 'PC-B', grade: 4 },
      FIRST[3]!,
      FIRST[4]!,
      staff(6, 'Fox', { payCycleId: 'PC-B' }),
    ]
    const second = await seedSnapshot(cache, next)
    expect(second.changes).toMatchObject({ firstSync: false, added: 1, removed: 1, changed: 1 })

    const [latest, earlier] = history.list()
    expect(latest).toMatchObject({ runId: second.id, firstSync: false, entriesKept: true, added: 1 })
    expect(earlier).toMatchObject({ runId: first.id, firstSync: true })
    expect(logFiles()).toHaveLength(1)

    expect(history.page(second.id, 'changed', 0, 100)).toEqual({
      total: 1,
      items: [
        {
          UUID: 'u-0003',
          name: 'First3 Clark',
          firstName: 'First3',
          lastName: 'Clark',
          employeeNumber: '0003',
          status: 'On leave',
          payCycleId: 'PC-B',
          fields: ['employeeStatus', 'payCycleId', 'grade'],
          changes: [
            { field: 'employeeStatus', before: 'Active', after: 'On leave' },
            { field: 'payCycleId', before: 'PC-A', after: 'PC-B' },
            { field: 'grade', before: 3, after: 4 },
          ],
        },
      ],
    })
    expect(history.page(second.id, 'added', 0, 100).items).toEqual([
      {
        UUID: 'u-0006',
        name: 'First6 Fox',
        firstName: 'First6',
        lastName: 'Fox',
        employeeNumber: '0006',
        status: 'Active',
        payCycleId: 'PC-B',
      },
    ])
    // A removed employee keeps the last row the cache held, whole.
    expect(history.page(second.id, 'removed', 0, 100).items).toEqual([
      {
        UUID: 'u-0002',
        name: 'First2 Baker',
        firstName: 'First2',
        lastName: 'Baker',
        employeeNumber: '0002',
        status: 'Active',
        payCycleId: 'PC-A',
        row: FIRST[1],
      },
    ])
    // The latest sync is what `employees:changes` and `cli changes` without --run read.
    expect(history.latestPage('removed', 0, 10).items.map((item) => item.UUID)).toEqual(['u-0002'])
  })

  it('keeps a removed employee viewable after later syncs replaced the snapshot that held them', async () => {
    await seedSnapshot(cache, FIRST)
    const removal = await seedSnapshot(cache, FIRST.slice(1))
    const regraded = FIRST.map((row) => ({ ...row, grade: 5 }))
    await seedSnapshot(cache, regraded.slice(1))
    await seedSnapshot(cache, regraded.slice(2))
    const queries = new QueryEngine(cache)
    expect(queries.getEmployee('u-0001')).toBeNull()
    expect(history.page(removal.id, 'removed', 0, 10).items).toEqual([
      expect.objectContaining({ UUID: 'u-0001', row: FIRST[0] }),
    ])
    expect(history.list().map((run) => [run.added, run.removed, run.changed])).toEqual([
      [0, 1, 0],
      [0, 0, 4],
      [0, 1, 0],
      [5, 0, 0],
    ])
  })

  it('lists each kind in name order (accents and case folded), a window at a time', async () => {
    await seedSnapshot(cache, [staff(1, 'Zed')])
    const names = ['Öberg', 'adams', 'Baker', 'Ådahl', 'Quinn', 'ñúñez', 'Baker', 'Young']
    const added = names.map((name, index) => staff(index + 10, name))
    const run = await seedSnapshot(cache, [staff(1, 'Zed'), ...added])
    const windows = [0, 3, 6].flatMap((offset) => history.page(run.id, 'added', offset, 3).items)
    expect(windows.map((item) => item.name.split(' ')[1])).toEqual([
      'Ådahl',
      'adams',
      'Baker',
      'Baker',
      'ñúñez',
      'Öberg',
      'Quinn',
      'Young',
    ])
    expect(history.page(run.id, 'added', 6, 3).total).toBe(8)
    expect(() => history.page(run.id, 'added', 0, 1001)).toThrow(/not valid/)
    expect(() => history.page(run.id + 100, 'added', 0, 10)).toThrow(/no longer in the change history/)
  })

  it('finds by a name word’s start (accents and case folded) and sorts by a column, the total counting those found', async () => {
    await seedSnapshot(cache, [staff(1, 'Zed')])
    const names = ['Öberg', 'adams', 'Baker', 'Ådahl', 'ñúñez']
    const run = await seedSnapshot(cache, [
      staff(1, 'Zed'),
      ...names.map((name, index) => staff(index + 10, name)),
    ])
    const lastNames = (page: { items: readonly { name: string }[] }): string[] =>
      page.items.map((item) => item.name.split(' ')[1]!)
    expect(lastNames(history.page(run.id, 'added', 0, 10, { search: 'OBE' }))).toEqual(['Öberg'])
    expect(history.page(run.id, 'added', 0, 10, { search: 'nun' })).toMatchObject({ total: 1 })
    // LIKE's wildcards are the clerk's characters, not patterns.
    expect(history.page(run.id, 'added', 0, 10, { search: '%' })).toEqual({ total: 0, items: [] })
    expect(history.page(run.id, 'added', 0, 10, { search: 'a_' })).toEqual({ total: 0, items: [] })
    expect(
      lastNames(history.page(run.id, 'added', 0, 10, { sort: { column: 'name', order: 'desc' } })),
    ).toEqual(['Öberg', 'ñúñez', 'Baker', 'adams', 'Ådahl'])
  })

  it('keeps the last 20 syncs and deletes the change logs of older ones', async () => {
    const rows = FIRST.map((row) => ({ ...row }))
    const runs: number[] = []
    for (let sync = 0; sync < 23; sync++) {
      rows[sync % rows.length]!['grade'] = sync + 10
      runs.push((await seedSnapshot(cache, rows)).id)
    }
    const listed = history.list()
    expect(listed.map((run) => run.runId)).toEqual(runs.slice(-20).reverse())
    expect(listed.every((run) => run.entriesKept)).toBe(true)
    // Run 1 was a first sync (no log); runs 2 and 3 fell out of the 20 and their files went with them.
    expect(logFiles()).toHaveLength(20)
    expect(cache.changeLogPath(runs[2]!)).toBeUndefined()
    expect(cache.changeLogPath(runs[3]!)).toBeDefined()
    expect(() => history.page(runs[2]!, 'changed', 0, 10)).toThrow(/no longer in the change history/)
    // Each log stays small: identity and the one changed field, not whole rows twice.
    for (const file of logFiles())
      expect(statSync(join(cache.changeLogDirectory, file)).size).toBeLessThan(32_768)
  }, 60_000)

  it('reads a change log written before the name parts were kept: the combined name alone', async () => {
    const reader = await sealedLogAltered(
      [
        {
          kind: 'added',
          uuid: 'u-7',
          name: 'Seven Gray',
          firstName: 'Seven',
          lastName: 'Gray',
          sortKey: 'gray',
        },
      ],
      'ALTER TABLE entries DROP COLUMN first_name; ALTER TABLE entries DROP COLUMN last_name',
    )
    try {
      expect(reader.page('added', 0, 10)).toEqual([{ UUID: 'u-7', name: 'Seven Gray' }])
    } finally {
      reader.close()
    }
  })

  it('says an entry whose stored JSON is damaged is a damaged file, in a window and in batches alike', async () => {
    const reader = await sealedLogAltered(
      [
        {
          kind: 'changed',
          uuid: 'u-8',
          name: 'Eight Hale',
          sortKey: 'hale',
          changesJson: '[{"field":"grade","before":3,"after":4}]',
        },
        { kind: 'removed', uuid: 'u-9', name: 'Nine Ives', sortKey: 'ives', rowJson: '{"UUID":"u-9"}' },
      ],
      `UPDATE entries SET changes = '[{"field":', row_json = '{"UUID"'`,
    )
    try {
      for (const read of [
        () => reader.page('changed', 0, 10),
        () => [...reader.batches('changed', 10)],
        () => [...reader.batches('removed', 10)],
      ]) {
        expect(read).toThrow(expect.objectContaining({ code: 'damaged-cache' }))
      }
    } finally {
      reader.close()
    }
  })

  it('deletes change logs no complete run names (a run that died before its commit) when the cache opens', async () => {
    await seedSnapshot(cache, FIRST)
    const orphan = cache.runs.createChangeLog(new Date())
    orphan.write([{ kind: 'added', uuid: 'u-9', name: 'Nine', sortKey: 'nine' }])
    await orphan.seal({})
    orphan.close()
    expect(logFiles()).toHaveLength(1)
    cache.close()
    open(join(dir, 'cache.db'))
    expect(logFiles()).toEqual([])
    expect(history.list()).toHaveLength(1)
  })
})

describe('a cache written before change logs existed', () => {
  let dir: string
  let cleanup: () => void
  let cache: CacheDatabase
  beforeEach(() => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-history-v2-'))
    cpSync(FIXTURE_V2, dir, { recursive: true })
    encryptFixtureCopy(dir)
    cache = openCacheDatabase(join(dir, 'employees.sqlite'), { key: TEST_CACHE_KEY })
  })
  afterEach(() => {
    cache.close()
    cleanup()
  })

  it('opens, migrated to the current catalog, and lists its last sync from the snapshot it holds', () => {
    expect(cache.db.pragma('user_version', { simple: true })).toBe(CATALOG_VERSION)
    const history = new ChangeHistory({ cache, queries: new QueryEngine(cache) })
    const [latest, first] = history.list()
    // Its reports predate `firstSync`: the oldest sync, which only added, is read as the first.
    expect(first).toMatchObject({ firstSync: true, entriesKept: false, added: 40, employeeCount: 40 })
    expect(latest).toMatchObject({ firstSync: false, entriesKept: true, added: 3, removed: 2, changed: 0 })
    expect(latest!.serviceAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(latest!.tenantId).toBe('tenant-demo')

    const added = history.page(latest!.runId, 'added', 0, 10)
    expect(added.total).toBe(3)
    for (const item of added.items) {
      expect(item).toMatchObject({
        employeeNumber: expect.stringMatching(/^\d{7}$/),
        status: expect.any(String),
      })
      expect(item.payCycleId).toMatch(/^PC-/)
    }
    const removed = history.page(latest!.runId, 'removed', 0, 10)
    expect(removed.total).toBe(2)
    for (const item of removed.items) expect(item.row?.['UUID']).toBe(item.UUID)
    // Its lists have no change log to search or sort: in name order they read, anything else is refused.
    expect(history.page(latest!.runId, 'added', 0, 10, { sort: { column: 'name', order: 'asc' } })).toEqual(
      added,
    )
    expect(() => history.page(latest!.runId, 'added', 0, 10, { search: 'a' })).toThrow(
      /saved before it could be searched or sorted/,
    )
  })

  it('keeps working when the next sync logs its changes: the old sync keeps its counts, the new one its entries', async () => {
    const queries = new QueryEngine(cache)
    const history = new ChangeHistory({ cache, queries })
    const before = history.list()
    const rows = [...queries.iterateRows({}, 1000)].flat()
    const changed = rows.map((row, index) => (index === 0 ? { ...row, employeeStatus: 'Suspended' } : row))
    const run = await seedSnapshot(cache, changed.slice(1).concat(changed.slice(0, 1)))
    const after = history.list()
    expect(after).toHaveLength(3)
    expect(after[0]).toMatchObject({
      runId: run.id,
      changed: rows[0]!['employeeStatus'] === 'Suspended' ? 0 : 1,
    })
    expect(after[1]).toMatchObject({ runId: before[0]!.runId, added: 3, removed: 2, entriesKept: false })
    expect(history.page(before[0]!.runId, 'added', 0, 10)).toEqual({ total: 0, items: [] })
  })
})
