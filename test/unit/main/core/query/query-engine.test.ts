import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

const ROWS: EmployeeRow[] = [
  employee('0a1b2c3d-0000-4000-8000-000000000001', 'Seán', "O'Brien", 'Active', {
    payCycleId: 'PC-A',
    salary: 50_000,
    hireDate: '2020-01-01',
    department: 'Finance',
  }),
  employee('1b2c3d4e-0000-4000-8000-000000000002', 'Zoë', 'Ångström', 'On leave', {
    payCycleId: 'PC-B',
    salary: 70_000,
    hireDate: '2019-05-05',
    department: 'Legal',
  }),
  employee('2c3d4e5f-0000-4000-8000-000000000003', 'María José', 'García-López', 'Active', {
    payCycleId: 'PC-A',
    salary: 60_000,
    hireDate: '2021-02-02',
    department: 'Finance',
  }),
  employee('3d4e5f60-0000-4000-8000-000000000004', 'さくら', '田中', 'Terminated', {
    payCycleId: 'PC-B',
    salary: null,
    department: 'Operations',
  }),
  employee('4e5f6071-0000-4000-8000-000000000005', 'John', 'Smith', 'Active', {
    payCycleId: 'PC-A',
    salary: 40_000,
    hireDate: '2018-03-03',
    department: 'Sales',
  }),
  employee('5f607182-0000-4000-8000-000000000006', 'Jane', 'Smithers', 'Pending', {
    salary: 'n/a',
    department: 'Sales',
  }),
  employee('60718293-0000-4000-8000-000000000007', 'Ann', 'smith', 'Active', {
    payCycleId: 'PC-A',
    salary: 45_000,
  }),
]
const name = (row: EmployeeRow): string => `${String(row['firstName'])} ${String(row['lastName'])}`

describe('QueryEngine', () => {
  let cleanup: () => void
  let cache: CacheDatabase
  let engine: QueryEngine
  beforeEach(() => {
    const temp = makeTempDir()
    cleanup = temp.cleanup
    cache = openCacheDatabase(join(temp.dir, 'cache.db'), { key: TEST_CACHE_KEY })
    engine = new QueryEngine(cache)
  })
  afterEach(() => {
    cache.close()
    cleanup()
  })
  const names = (query: Parameters<QueryEngine['query']>[0]): string[] => engine.query(query).rows.map(name)

  it('answers an empty cache with no rows and the four known columns', () => {
    expect(engine.query({ text: 'x', facets: true })).toEqual({
      total: 0,
      rows: [],
      facets: { status: [], payCycle: [] },
    })
    expect(engine.listColumns().map((c) => c.key)).toEqual([
      'UUID',
      'firstName',
      'lastName',
      'employeeStatus',
    ])
    expect(engine.getEmployee('anything')).toBeNull()
  })

  describe('with a snapshot', () => {
    beforeEach(async () => {
      await seedSnapshot(cache, ROWS, { 'PC-B': ['5f607182-0000-4000-8000-000000000006'] })
    })

    it('matches word prefixes in any order, ignoring case and accents, sorted by last then first name', () => {
      expect(names({ text: 'smi' })).toEqual(['Ann smith', 'John Smith', 'Jane Smithers'])
      expect(names({ text: 'smith john' })).toEqual(['John Smith'])
      expect(names({ text: 'J SMITH' })).toEqual(['John Smith', 'Jane Smithers'])
      expect(names({ text: 'sean obrien' })).toEqual(["Seán O'Brien"])
      expect(names({ text: "o'br" })).toEqual(["Seán O'Brien"])
      expect(names({ text: 'brien' })).toEqual(["Seán O'Brien"])
      expect(names({ text: 'ZOE angst' })).toEqual(['Zoë Ångström'])
      expect(names({ text: 'jose lopez' })).toEqual(['María José García-López'])
      expect(names({ text: '田中' })).toEqual(['さくら 田中'])
      expect(names({ text: 'さく' })).toEqual(['さくら 田中'])
      expect(engine.query({ text: 'smith nobody' }).total).toBe(0)
    })

    it('matches UUID prefixes from four characters, or from one when the search is on the UUID column', () => {
      expect(names({ text: '2c3d4e' })).toEqual(['María José García-López'])
      expect(names({ text: '2C3D-' })).toEqual([])
      expect(names({ text: '4e5' })).toEqual([])
      expect(names({ text: '4e', column: 'UUID' })).toEqual(['John Smith'])
    })

    it('restricts the search to one column, known or discovered', () => {
      expect(names({ text: 'john', column: 'lastName' })).toEqual([])
      expect(names({ text: 'john', column: 'firstName' })).toEqual(['John Smith'])
      expect(names({ text: 'fin', column: 'department' })).toEqual([
        'María José García-López',
        "Seán O'Brien",
      ])
      expect(names({ text: '2019', column: 'hireDate' })).toEqual(['Zoë Ångström'])
    })

    it('filters by several statuses and pay cycles, including cycles known only from the tracked lists', () => {
      expect(names({ statuses: ['Pending', 'Terminated'] })).toEqual(['Jane Smithers', 'さくら 田中'])
      expect(names({ payCycleIds: ['PC-B'] })).toEqual(['Zoë Ångström', 'Jane Smithers', 'さくら 田中'])
      expect(names({ payCycleIds: ['PC-B'], statuses: ['On leave'] })).toEqual(['Zoë Ångström'])
      expect(engine.query({ statuses: ['Nobody'] }).total).toBe(0)
    })

    it('counts facets for the current search, each ignoring its own filter', () => {
      const result = engine.query({ text: 'smi', statuses: ['Active'], facets: true })
      expect(result.total).toBe(2)
      expect(result.facets?.status).toEqual([
        { value: 'Active', count: 2 },
        { value: 'On leave', count: 0 },
        { value: 'Pending', count: 1 },
        { value: 'Terminated', count: 0 },
      ])
      expect(result.facets?.payCycle).toEqual([
        { value: 'PC-A', count: 2 },
        { value: 'PC-B', count: 0 },
      ])
    })

    it('sorts by any column, empty values last, ties in name order', () => {
      expect(names({ sort: { column: 'salary', order: 'asc' } })).toEqual([
        'John Smith',
        'Ann smith',
        "Seán O'Brien",
        'María José García-López',
        'Zoë Ångström',
        'Jane Smithers',
        'さくら 田中',
      ])
      expect(names({ sort: { column: 'salary', order: 'desc' } }).slice(0, 3)).toEqual([
        'Jane Smithers',
        'Zoë Ångström',
        'María José García-López',
      ])
      expect(names({ sort: { column: 'hireDate', order: 'desc' } }).at(-1)).toBe('さくら 田中')
      expect(names({ sort: { column: 'employeeStatus', order: 'asc' }, limit: 4 })).toEqual([
        'María José García-López',
        "Seán O'Brien",
        'Ann smith',
        'John Smith',
      ])
      expect(names({ sort: { column: 'lastName', order: 'desc' } })[0]).toBe('さくら 田中')
    })

    it('returns the requested window and the full total', () => {
      const all = names({})
      expect(all).toHaveLength(7)
      const page = engine.query({ offset: 2, limit: 3 })
      expect(page.total).toBe(7)
      expect(page.rows.map(name)).toEqual(all.slice(2, 5))
      expect(engine.query({ limit: 0 })).toEqual({ total: 7, rows: [] })
      expect(engine.query({ offset: 50 }).rows).toEqual([])
    })

    it('returns every field exactly as the service sent it', () => {
      const row = engine.query({ text: 'zoe' }).rows[0]
      expect(row).toEqual(ROWS[1])
    })

    it('refuses unknown columns and invalid queries with a validation error', () => {
      expect(() => engine.query({ sort: { column: 'nope', order: 'asc' } })).toThrow(
        /no column called “nope”/,
      )
      expect(() => engine.query({ text: 'a', column: 'nope' })).toThrow(/no column/)
      expect(() => engine.query({ limit: 5000 })).toThrow(expect.objectContaining({ code: 'validation' }))
    })

    it('gets one employee with all fields and pay cycles', () => {
      expect(engine.getEmployee('5f607182-0000-4000-8000-000000000006')).toEqual({
        row: ROWS[5],
        payCycleIds: ['PC-B'],
      })
      expect(engine.getEmployee(String(ROWS[0]!['UUID']))?.payCycleIds).toEqual(['PC-A'])
      expect(engine.getEmployee('5F607182-0000-4000-8000-000000000006')).toBeNull()
    })

    it('lists known columns first, then discovered ones with their kinds', () => {
      expect(engine.listColumns()).toEqual([
        { key: 'UUID', label: 'UUID', kind: 'text', known: true, identifier: 'uuid' },
        { key: 'firstName', label: 'First name', kind: 'text', known: true },
        { key: 'lastName', label: 'Last name', kind: 'text', known: true },
        { key: 'employeeStatus', label: 'Status', kind: 'text', known: true },
        { key: 'payCycleId', label: 'Pay cycle', kind: 'text', known: false },
        { key: 'salary', label: 'Salary', kind: 'mixed', known: false },
        { key: 'hireDate', label: 'Hire date', kind: 'date', known: false },
        { key: 'department', label: 'Department', kind: 'text', known: false },
      ])
    })

    it('sees a newly committed snapshot on the next query, while a running export keeps the old one', async () => {
      const batches = engine.iterateRows({ statuses: ['Active'] }, 2)
      const first = batches.next()
      await seedSnapshot(cache, [employee('ffff0000-0000-4000-8000-000000000009', 'Solo', 'Only', 'Active')])
      expect(names({})).toEqual(['Solo Only'])
      const rest = [...batches].flat()
      expect([...(first.value ?? []), ...rest].map(name)).toEqual([
        'María José García-López',
        "Seán O'Brien",
        'Ann smith',
        'John Smith',
      ])
    })

    it('lists every added, changed and removed employee of the last sync', async () => {
      expect(engine.listChanges('added', 0, 3)).toMatchObject({
        total: 7,
        items: [
          { UUID: ROWS[0]!['UUID'], name: "Seán O'Brien" },
          { UUID: ROWS[1]!['UUID'], name: 'Zoë Ångström' },
          { UUID: ROWS[2]!['UUID'], name: 'María José García-López' },
        ],
      })
      const next = ROWS.slice(1).map((row) => ({ ...row }))
      next[0]!['employeeStatus'] = 'Terminated'
      await seedSnapshot(cache, next)
      expect(engine.listChanges('added')).toEqual({ total: 0, items: [] })
      expect(engine.listChanges('changed')).toMatchObject({
        total: 1,
        items: [{ UUID: ROWS[1]!['UUID'], name: 'Zoë Ångström', fields: ['employeeStatus'] }],
      })
      // Each entry with the facts the change report shows; a removed one with its last row.
      expect(engine.listChanges('removed')).toMatchObject({
        total: 1,
        items: [
          { UUID: ROWS[0]!['UUID'], name: "Seán O'Brien", status: ROWS[0]!['employeeStatus'], row: ROWS[0] },
        ],
      })
      expect(engine.listChanges('changed').items[0]?.status).toBe('Terminated')
      expect(() => engine.listChanges('added', -1)).toThrow(/not valid/)
    })

    it('counts without reading rows', () => {
      expect(engine.count({ text: 'smith' })).toBe(3)
    })
  })
})
