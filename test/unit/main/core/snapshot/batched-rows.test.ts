import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RowQuery } from '../../../../../src/shared/domain/query'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { chosenRowSource, queryRowSource } from '../../../../../src/main/core/export/export-query-source'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { ROWS_PER_LOOKUP, storedFieldsFor } from '../../../../../src/main/core/snapshot/row-reader'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

/**
 * Rows are read a batch per statement (row-reader.ts): the order of the query, every field as stored, the chosen
 * UUIDs only, and, when an export writes only fields the snapshot keeps in columns of their own, those fields
 * without parsing the row's JSON. Checked against the rows themselves, ordered here by the query's own rule.
 */

const SIZE = ROWS_PER_LOOKUP * 2 + 7
const STATUSES = ['Active', 'On leave', 'Terminated']

function row(index: number): EmployeeRow {
  // Last names out of id order, so the default order (last name, then first name) jumps about the file.
  const last = `Name${String((index * 7919) % SIZE).padStart(4, '0')}`
  return employee(
    `${String(index).padStart(8, '0')}-0000-4000-8000-${String(index).padStart(12, '0')}`,
    `First${index}`,
    last,
    STATUSES[index % STATUSES.length] as string,
    {
      salary: 30_000 + index,
      onCall: index % 2 === 0,
      address: { city: `City ${index % 5}` },
      ...(index % 10 === 0 ? {} : { payCycleId: `PC-${index % 3}` }),
    },
  )
}

const ROWS = Array.from({ length: SIZE }, (_, index) => row(index))

function byName(a: EmployeeRow, b: EmployeeRow): number {
  const last = String(a['lastName']).localeCompare(String(b['lastName']))
  return last !== 0 ? last : String(a['firstName']).localeCompare(String(b['firstName']))
}

describe('rows read a batch per statement', () => {
  let dir: ReturnType<typeof makeTempDir>
  let cache: CacheDatabase
  let engine: QueryEngine

  beforeAll(async () => {
    dir = makeTempDir()
    cache = openCacheDatabase(join(dir.dir, 'cache.db'), { key: TEST_CACHE_KEY })
    await seedSnapshot(cache, ROWS)
    engine = new QueryEngine(cache)
  })
  afterAll(() => {
    cache?.close()
    dir?.cleanup()
  })

  function read(query: RowQuery, batchSize: number, options = {}): EmployeeRow[][] {
    return [...engine.iterateRows(query, batchSize, options)]
  }

  it('gives every row whole, in the query order, across lookup and batch boundaries', () => {
    const expected = [...ROWS].sort(byName)
    for (const batchSize of [1, ROWS_PER_LOOKUP - 1, ROWS_PER_LOOKUP, ROWS_PER_LOOKUP + 1, 1000]) {
      const batches = read({}, batchSize)
      expect(batches.map((batch) => batch.length)).toEqual(
        Array.from({ length: Math.ceil(SIZE / batchSize) }, (_, index) =>
          Math.min(batchSize, SIZE - index * batchSize),
        ),
      )
      expect(batches.flat()).toEqual(expected)
    }
  })

  it('keeps a sorted and filtered query order, descending too', () => {
    const query: RowQuery = { statuses: ['Active'], sort: { column: 'salary', order: 'desc' } }
    const expected = ROWS.filter((r) => r['employeeStatus'] === 'Active').sort(
      (a, b) => Number(b['salary']) - Number(a['salary']),
    )
    expect(read(query, ROWS_PER_LOOKUP).flat()).toEqual(expected)
  })

  it('reads nothing for a query that matches no row', () => {
    expect(read({ text: 'nobody-is-called-this' }, 100)).toEqual([])
    expect(engine.count({ text: 'nobody-is-called-this' })).toBe(0)
  })

  it('reads only the chosen UUIDs, in the query order, leaving out unknown ones and a UUID in other case', () => {
    const chosen = [ROWS[SIZE - 1], ROWS[3], ROWS[ROWS_PER_LOOKUP], ROWS[0]].map((r) => String(r?.['UUID']))
    const uuids = [...chosen, 'ffffffff-0000-4000-8000-000000000000', chosen[1]?.toUpperCase() ?? '']
    const expected = ROWS.filter((r) => chosen.includes(String(r['UUID']))).sort(byName)
    expect(read({}, 2, { uuids }).flat()).toEqual(expected)
    expect(read({}, 2, { uuids: [] })).toEqual([])
  })

  it('gives only the asked fields from the stored columns when they hold them exactly, else whole rows', () => {
    const fields = ['lastName', 'UUID', 'employeeStatus', 'payCycleId']
    expect(storedFieldsFor(fields, engine.listColumns())).not.toBeNull()
    const narrow = read({}, ROWS_PER_LOOKUP + 3, { fields }).flat()
    const expected = [...ROWS].sort(byName).map((r) => {
      const picked: EmployeeRow = {}
      for (const key of fields) if (r[key] !== undefined) picked[key] = r[key]
      return picked
    })
    expect(narrow).toEqual(expected)
    // A field without a column of its own (or a stored column of mixed kinds) needs the whole row.
    expect(storedFieldsFor(['lastName', 'salary'], engine.listColumns())).toBeNull()
    expect(storedFieldsFor(['firstName'], [{ key: 'firstName', kind: 'mixed' }])).toBeNull()
    expect(read({}, 5000, { fields: ['lastName', 'salary'] }).flat()).toEqual([...ROWS].sort(byName))
  })

  it('feeds exports: the whole view, and the chosen rows of it', async () => {
    const all: EmployeeRow[] = []
    for await (const batch of queryRowSource(engine, {}, 300, { fields: ['UUID', 'onCall'] }).batches()) {
      all.push(...batch)
    }
    expect(all).toEqual([...ROWS].sort(byName))
    const uuids = [String(ROWS[5]?.['UUID']), String(ROWS[400]?.['UUID'])]
    const source = chosenRowSource(engine, { sort: { column: 'salary', order: 'desc' } }, uuids, 300, {
      fields: ['lastName'],
    })
    const chosen: EmployeeRow[] = []
    for await (const batch of source.batches()) chosen.push(...batch)
    // The UUID is read even when not written: it is how chosen rows are recognised.
    expect(chosen).toEqual(
      [ROWS[400], ROWS[5]].map((r) => ({ UUID: r?.['UUID'], lastName: r?.['lastName'] })),
    )
  })
})
