import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmployeeQuery } from '../../../../../src/shared/domain/query'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { employeeQuerySchema } from '../../../../../src/shared/domain/query'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { createRng } from '../../../../../src/main/sandbox/random'
import { columnsOf, runQuery } from '../../../../helpers/fake/fake-query'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { seedSnapshot } from '../../../../helpers/seed-snapshot'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

/**
 * The renderer tests' fake core answers `employees:query` and `employees:columns` with fake-query.ts; component
 * tests prove only what the app does if that fake answers as the real engine does. Here both read the same rows,
 * the engine through a snapshot seeded by the sync's own writer, and must give the same totals, rows in the same
 * order, facets and columns, for the searches clerks type and every sort.
 */

const LAST = [
  'Müller',
  'Mueller',
  'Ångström',
  'Øster',
  'Oster',
  "O'Brien",
  'Émile',
  'eve',
  'Eve',
  'Zoë',
  'Smith',
]
const FIRST = ['Zoë', 'Émile', 'eve', 'Adam', 'Søren', 'José', 'Anna']

function makeRows(): EmployeeRow[] {
  const random = createRng(7)
  const rows: EmployeeRow[] = []
  for (let i = 0; i < 240; i++) {
    const hex = Math.floor(random() * 0xffffffff)
      .toString(16)
      .padStart(8, '0')
    const row: EmployeeRow = { UUID: `${hex}-5b1e-4c0d-9e2f-${String(i).padStart(12, '0')}` }
    const last = LAST[i % LAST.length] as string
    const first = FIRST[Math.floor(i / LAST.length) % FIRST.length] as string
    if (i % 37 !== 5) row['lastName'] = last
    if (i % 41 !== 3) row['firstName'] = first
    if (i % 29 !== 0) row['employeeStatus'] = ['1', '2', '3'][i % 3] as string
    if (i % 13 !== 0) row['payCycleId'] = ['PC-A', 'PC-B'][i % 2] as string
    // Seven digits, zero-padded: "42" must find 0000042 and "0042" too, by the identifier rule.
    row['employeeNumber'] = String(i + 1).padStart(7, '0')
    row['email'] = `${(FIRST[i % FIRST.length] as string).toLowerCase()}.${i}@example.com`
    // Numbers and a few text values in one column: numbers sort before text, empty values last.
    if (i % 11 !== 0) row['annualSalary'] = i % 17 === 0 ? 'n/a' : 30_000 + ((i * 7919) % 50) * 1000
    row['hireDate'] = `20${10 + (i % 15)}-0${1 + (i % 9)}-15`
    row['remote'] = i % 3 === 0
    // A digit column that repeats is not an identifier and is never searched by default.
    row['grade'] = String(1 + (i % 9))
    rows.push(row)
  }
  // Same names as each other in a service order whose UUIDs run backwards: ties keep the service's order.
  rows.push(
    {
      UUID: 'ffffffff-0000-4000-8000-000000000001',
      lastName: 'Twin',
      firstName: 'Ann',
      employeeNumber: '0000900',
    },
    {
      UUID: '00000000-0000-4000-8000-000000000002',
      lastName: 'Twin',
      firstName: 'Ann',
      employeeNumber: '0000901',
    },
  )
  return rows
}

const rows = makeRows()
/** Employee number 0000042. */
const someone = rows[41] as EmployeeRow
const SEARCHES: ReadonlyArray<{ readonly what: string; readonly query: Partial<EmployeeQuery> }> = [
  { what: 'no search', query: {} },
  { what: 'a number with its leading zeros', query: { text: '0000042' } },
  { what: 'the same number without them', query: { text: '42' } },
  { what: 'a number with some of its zeros', query: { text: '0042' } },
  { what: 'the start of numbers', query: { text: '1' } },
  { what: 'an inner fragment of a number', query: { text: '0004' } },
  { what: 'an e-mail prefix', query: { text: 'anna.4' } },
  { what: 'a whole e-mail in capitals', query: { text: String(someone['email']).toUpperCase() } },
  { what: 'a transliterated name', query: { text: 'mueller' } },
  { what: 'a name typed without its letters', query: { text: 'angstrom' } },
  { what: 'ø typed as o', query: { text: 'oster' } },
  { what: 'a joined name', query: { text: 'obrien' } },
  { what: 'two words', query: { text: 'emile zo' } },
  { what: 'a UUID prefix', query: { text: String(someone['UUID']).slice(0, 8) } },
  { what: 'a whole UUID', query: { text: String(someone['UUID']) } },
  { what: 'an inner fragment of a UUID', query: { text: '5b1e-4c0d' } },
  { what: 'a repeating digit column is not searched', query: { text: '7', column: undefined } },
  { what: 'search in the e-mail column', query: { text: 'eve', column: 'email' } },
  { what: 'search in the UUID column from one character', query: { text: 'f', column: 'UUID' } },
  { what: 'search in a plain column', query: { text: '2015', column: 'hireDate' } },
  { what: 'filters', query: { statuses: ['1', ''], payCycleIds: ['PC-B'] } },
  { what: 'a name and a filter', query: { text: 'eve', statuses: ['2'] } },
]
const SORTS: ReadonlyArray<EmployeeQuery['sort']> = [
  undefined,
  ...[
    'lastName',
    'firstName',
    'annualSalary',
    'hireDate',
    'remote',
    'employeeStatus',
    'UUID',
    'email',
  ].flatMap((column) => (['asc', 'desc'] as const).map((order) => ({ column, order }))),
]

describe('the renderer tests’ fake query engine agrees with the real one', () => {
  let cleanup: () => void
  let cache: CacheDatabase
  let engine: QueryEngine

  beforeAll(async () => {
    const temp = makeTempDir()
    cleanup = temp.cleanup
    cache = openCacheDatabase(join(temp.dir, 'cache.db'), { key: TEST_CACHE_KEY })
    await seedSnapshot(cache, rows)
    engine = new QueryEngine(cache)
  })
  afterAll(() => {
    cache.close()
    cleanup()
  })

  it('lists the same columns, kinds, labels and identifier roles', () => {
    expect(columnsOf(rows)).toEqual(engine.listColumns())
  })

  it('answers the same before any sync', () => {
    const temp = makeTempDir()
    const empty = openCacheDatabase(join(temp.dir, 'cache.db'), { key: TEST_CACHE_KEY })
    try {
      const real = new QueryEngine(empty)
      const query = { text: 'ann', facets: true, offset: 0, limit: 10 }
      expect(columnsOf([])).toEqual(real.listColumns())
      expect(runQuery([], employeeQuerySchema.parse(query))).toEqual(real.query(query))
    } finally {
      empty.close()
      temp.cleanup()
    }
  })

  for (const { what, query } of SEARCHES) {
    it(`${what}: the same rows in the same order under every sort, and the same facets`, () => {
      for (const sort of SORTS) {
        for (const [offset, limit] of [
          [0, 500],
          [3, 7],
        ] as const) {
          const input: EmployeeQuery = { ...query, facets: true, offset, limit, ...(sort ? { sort } : {}) }
          const real = engine.query(input)
          const fake = runQuery(rows, employeeQuerySchema.parse(input))
          const label = JSON.stringify(input)
          expect(fake.total, label).toBe(real.total)
          expect(
            fake.rows.map((row) => row.UUID),
            label,
          ).toEqual(real.rows.map((row) => row.UUID))
          expect(fake.facets, label).toEqual(real.facets)
        }
      }
    })
  }

  it('finds what a clerk expects, so agreeing is not agreeing on nothing', () => {
    const uuids = (input: EmployeeQuery): unknown[] =>
      runQuery(rows, employeeQuerySchema.parse({ limit: 500, ...input })).rows.map((row) => row.UUID)
    expect(uuids({ text: '42' })[0]).toBe(someone['UUID'])
    expect(uuids({ text: '0000042' })[0]).toBe(someone['UUID'])
    expect(uuids({ text: 'anna.4' }).length).toBeGreaterThan(0)
    expect(uuids({ text: 'mueller' }).length).toBe(
      rows.filter((row) => row['lastName'] === 'Müller' || row['lastName'] === 'Mueller').length,
    )
    // A pasted part of a UUID (hex digits and letters with a hyphen) is found anywhere in it: every UUID here
    // holds this one. Digits and a hyphen alone are read from a UUID's start only.
    const holding = rows.filter((row) => String(row.UUID).includes('5b1e-4c0d')).length
    expect(holding).toBeGreaterThan(100)
    expect(uuids({ text: '5b1e-4c0d' })).toHaveLength(holding)
    expect(uuids({ text: '0000-0000' })).toEqual([])
    // Ties keep the service's order, not the UUID's.
    expect(uuids({ text: 'twin' })).toEqual([
      'ffffffff-0000-4000-8000-000000000001',
      '00000000-0000-4000-8000-000000000002',
    ])
    // Accented names sort by their folded form among the plain ones: Émile with e, Zoë last, Øster with Oster.
    const lastNames = runQuery(rows, employeeQuerySchema.parse({ limit: 500 }))
      .rows.map((row) => row.lastName)
      .filter((name, index, all) => name !== undefined && all.indexOf(name) === index)
    expect(lastNames).toEqual([
      'Ångström',
      'Émile',
      'eve',
      'Eve',
      'Mueller',
      'Müller',
      "O'Brien",
      'Øster',
      'Oster',
      'Smith',
      'Twin',
      'Zoë',
    ])
  })
})
