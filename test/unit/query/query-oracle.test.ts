import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmployeeQuery, EmployeeRow, FacetCount } from '../../../src/shared/domain'
import { openCacheDatabase } from '../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../src/main/core/cache/cache-database'
import { foldSearchWord, foldText, tokenize } from '../../../src/main/core/cache/text-fold'
import { QueryEngine } from '../../../src/main/core/query/query-engine'
import { makeTempDir } from '../cache/cache-test-helpers'
import { seedSnapshot } from '../cache/seed-snapshot'
import { createRng } from '../../../src/main/sandbox/random'

/**
 * The engine against a slow, obvious reference over the same rows: random queries mixing text, filters, sorts
 * and windows (both the "sort the selection" and "walk the order" strategies), compared result for result.
 */

const LAST = [
  'Smith',
  'Smithers',
  "O'Brien",
  'García-López',
  'Ångström',
  'Øster',
  'Lee',
  'Li',
  '田中',
  'Nguyễn',
  null,
]
const FIRST = ['Ann', 'Anne-Marie', 'Zoë', 'José', 'John', 'Jo', 'さくら', 'Élodie', null]
const STATUSES = ['Active', 'Active', 'Active', 'On leave', 'Terminated', 'Pending']
const CYCLES = ['PC-A', 'PC-B', 'PC-C']

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T

function makeRows(count: number, random: () => number): EmployeeRow[] {
  return Array.from({ length: count }, (_, i) => {
    const hex = Math.floor(random() * 0xffffffff)
      .toString(16)
      .padStart(8, '0')
    const row: EmployeeRow = { UUID: `${hex}-0000-4000-8000-${String(i).padStart(12, '0')}` }
    const first = pick(random, FIRST)
    const last = pick(random, LAST)
    if (first !== null) row['firstName'] = first
    if (last !== null) row['lastName'] = last
    if (random() < 0.95) row['employeeStatus'] = pick(random, STATUSES)
    if (random() < 0.8) row['payCycleId'] = pick(random, CYCLES)
    if (random() < 0.9) row['salary'] = Math.floor(random() * 50) * 1000
    row['hireDate'] = `20${10 + Math.floor(random() * 15)}-0${1 + Math.floor(random() * 9)}-15`
    return row
  })
}

const tokenCache = new WeakMap<EmployeeRow, string[]>()
function tokensOf(row: EmployeeRow): string[] {
  let tokens = tokenCache.get(row)
  if (tokens === undefined) {
    tokens = [...tokenize(String(row['firstName'] ?? '')), ...tokenize(String(row['lastName'] ?? ''))]
    tokenCache.set(row, tokens)
  }
  return tokens
}

type SortValue = number | string | null
const folded = new Map<string, string>()
function sortValue(row: EmployeeRow, column: string): SortValue {
  const value = row[column]
  if (typeof value === 'number') return value
  if (typeof value !== 'string') return null
  let text = folded.get(value)
  if (text === undefined) {
    text = foldText(value)
    folded.set(value, text)
  }
  return text
}

function compareValues(a: SortValue, b: SortValue, desc: boolean): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  const group = (v: SortValue) => (typeof v === 'number' ? 0 : 1)
  let result = group(a) - group(b)
  if (result === 0) result = a < b ? -1 : 1
  return desc ? -result : result
}

function reference(rows: EmployeeRow[], members: Map<string, string[]>, query: EmployeeQuery) {
  const words = (query.text ?? '')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '')
  const cyclesOf = (row: EmployeeRow): string[] => {
    const own = typeof row['payCycleId'] === 'string' ? [row['payCycleId']] : []
    return [...new Set([...own, ...(members.get(String(row['UUID'])) ?? [])])]
  }
  const textOk = (row: EmployeeRow): boolean => {
    const tokens = tokensOf(row)
    const uuid = String(row['UUID']).toLowerCase()
    return words.every((word) => {
      const folded = foldSearchWord(word)
      const lower = word.toLowerCase()
      if (/^[0-9a-f][0-9a-f-]*$/.test(lower) && lower.length >= 4 && uuid.startsWith(lower)) return true
      return folded !== '' && tokens.some((token) => token.startsWith(folded))
    })
  }
  const status = (row: EmployeeRow): string =>
    typeof row['employeeStatus'] === 'string' ? row['employeeStatus'] : ''
  const statusOk = (row: EmployeeRow) => !query.statuses?.length || query.statuses.includes(status(row))
  const cycleOk = (row: EmployeeRow) =>
    !query.payCycleIds?.length || cyclesOf(row).some((c) => query.payCycleIds?.includes(c))
  const indexed = rows.map((row, index) => ({ row, index }))
  const texted = indexed.filter(({ row }) => textOk(row))
  const matched = texted.filter(({ row }) => statusOk(row) && cycleOk(row))
  const defaultCompare = (a: { row: EmployeeRow; index: number }, b: { row: EmployeeRow; index: number }) =>
    compareValues(sortValue(a.row, 'lastName'), sortValue(b.row, 'lastName'), false) ||
    compareValues(sortValue(a.row, 'firstName'), sortValue(b.row, 'firstName'), false) ||
    a.index - b.index
  const sort = query.sort
  matched.sort((a, b) => {
    if (sort === undefined) return defaultCompare(a, b)
    const desc = sort.order === 'desc'
    if (sort.column === 'lastName') {
      // Groups of (last name, first name) reversed as a whole; rows without a last name last, in default order.
      const lastA = sortValue(a.row, 'lastName')
      const lastB = sortValue(b.row, 'lastName')
      if (lastA === null || lastB === null) return compareValues(lastA, lastB, desc) || defaultCompare(a, b)
      const byName =
        compareValues(lastA, lastB, false) ||
        compareValues(sortValue(a.row, 'firstName'), sortValue(b.row, 'firstName'), false)
      return (desc ? -byName : byName) || a.index - b.index
    }
    return (
      compareValues(sortValue(a.row, sort.column), sortValue(b.row, sort.column), desc) ||
      defaultCompare(a, b)
    )
  })
  const offset = query.offset ?? 0
  const limit = query.limit ?? 100
  const count = (
    values: string[],
    keep: (row: EmployeeRow) => boolean,
    of: (row: EmployeeRow) => string[],
  ): FacetCount[] =>
    values
      .map((value) => ({
        value,
        count: texted.filter(({ row }) => keep(row) && of(row).includes(value)).length,
      }))
      .sort((a, b) => (a.value < b.value ? -1 : 1))
  const allStatuses = [...new Set(rows.map(status))]
  const allCycles = [...new Set(rows.flatMap(cyclesOf))]
  return {
    total: matched.length,
    uuids: matched.slice(offset, offset + limit).map(({ row }) => row['UUID']),
    facets: {
      status: count(allStatuses, cycleOk, (row) => [status(row)]),
      payCycle: count(allCycles, statusOk, cyclesOf),
    },
  }
}

function randomQuery(random: () => number, rows: EmployeeRow[]): EmployeeQuery {
  const query: EmployeeQuery = { facets: true }
  const r = random()
  if (r < 0.6) {
    const words: string[] = []
    const wordCount = 1 + Math.floor(random() * 2)
    for (let i = 0; i < wordCount; i++) {
      const row = pick(random, rows)
      if (random() < 0.15) words.push(String(row['UUID']).slice(0, 4 + Math.floor(random() * 4)))
      else {
        const source = String(row[random() < 0.5 ? 'firstName' : 'lastName'] ?? 'x')
        words.push(source.slice(0, 1 + Math.floor(random() * 4)))
      }
    }
    query.text = words.join(' ')
  }
  if (random() < 0.3) query.statuses = [pick(random, STATUSES), pick(random, [...STATUSES, 'Nope'])]
  if (random() < 0.3) query.payCycleIds = [pick(random, CYCLES)]
  if (random() < 0.5) {
    query.sort = {
      column: pick(random, ['salary', 'hireDate', 'firstName', 'lastName', 'employeeStatus', 'UUID']),
      order: random() < 0.5 ? 'asc' : 'desc',
    }
  }
  query.offset = random() < 0.3 ? Math.floor(random() * 200) : 0
  query.limit = 1 + Math.floor(random() * 60)
  return query
}

describe('QueryEngine against a reference implementation', () => {
  let cleanup: () => void
  let cache: CacheDatabase
  let engine: QueryEngine
  const random = createRng(42)
  const rows = makeRows(2500, random)
  const members = new Map<string, string[]>()
  const tracked: Record<string, string[]> = { 'PC-Z': [] }
  for (const row of rows) {
    if (random() < 0.05) {
      members.set(String(row['UUID']), ['PC-Z'])
      tracked['PC-Z']?.push(String(row['UUID']))
    }
  }

  beforeAll(async () => {
    const temp = makeTempDir()
    cleanup = temp.cleanup
    cache = openCacheDatabase(join(temp.dir, 'cache.db'))
    await seedSnapshot(cache, rows, tracked)
    engine = new QueryEngine(cache)
  })
  afterAll(() => {
    cache.close()
    cleanup()
  })

  it('agrees on totals, windows and facets for 200 random queries', () => {
    for (let i = 0; i < 200; i++) {
      const query = randomQuery(random, rows)
      const expected = reference(rows, members, query)
      const actual = engine.query(query)
      const label = JSON.stringify(query)
      expect(actual.total, label).toBe(expected.total)
      expect(
        actual.rows.map((row) => row['UUID']),
        label,
      ).toEqual(expected.uuids)
      expect(actual.facets, label).toEqual(expected.facets)
    }
  })

  it('answers the same from an index rebuilt from the columns as from the one the sync stored', async () => {
    const temp = makeTempDir()
    const bare = openCacheDatabase(join(temp.dir, 'bare.db'))
    try {
      await seedSnapshot(bare, rows, tracked)
      const path = bare.currentSnapshotInfo()?.path ?? ''
      const raw = new Database(path)
      expect(raw.prepare('SELECT count(*) FROM search_index').pluck().get()).toBeGreaterThan(5)
      raw.prepare('DELETE FROM search_index').run()
      raw.close()
      const rebuilt = new QueryEngine(bare)
      for (let i = 0; i < 60; i++) {
        const query = randomQuery(random, rows)
        expect(rebuilt.query(query), JSON.stringify(query)).toEqual(engine.query(query))
      }
    } finally {
      bare.close()
      temp.cleanup()
    }
  })

  it('streams every match in the same order as the windows', () => {
    const query: EmployeeQuery = { text: 'an', sort: { column: 'salary', order: 'desc' } }
    const streamed = [...engine.iterateRows(query, 7)].flat().map((row) => row['UUID'])
    const expected = reference(rows, members, { ...query, limit: rows.length })
    expect(streamed).toEqual(expected.uuids)
    expect(streamed.length).toBeGreaterThan(100)
  })
})
