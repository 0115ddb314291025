import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmployeeQuery } from '../../../../../src/shared/domain/query'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import type { CacheDatabase } from '../../../../../src/main/core/cache/cache-database'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { decodeStoredIndex, STORED_INDEX_VERSION } from '../../../../../src/main/core/query/stored-index'
import { SnapshotReader } from '../../../../../src/main/core/snapshot/snapshot-reader'
import { makeTempDir } from '../../../../helpers/cache-test-helpers'
import { employee, seedSnapshot } from '../../../../helpers/seed-snapshot'
import { TEST_CACHE_KEY, rawDatabase } from '../../../../helpers/test-cache-key'

/**
 * The default search box as clerks use it, against the real engine over a real (small) cache: employee numbers
 * with or without their zeros, e-mail addresses whole or from the start, UUIDs whole or by prefix, by a pasted part
 * (hex letters and digits with a hyphen) or in "Search in: UUID" from eight characters anywhere, transliterated
 * names, and exact identifiers listed first.
 */

const uuid = (head: string, n: number): string => `${head}-0000-4000-8000-${String(n).padStart(12, '0')}`

const ROWS: EmployeeRow[] = [
  employee(uuid('c0ffee00', 1), 'Anna', 'Kowalski', 'Active', {
    employeeNumber: '0004360',
    email: 'anna.kowalski@example.com',
    grade: '7',
    backupEmail: 'anna@home.example',
  }),
  employee(uuid('b0b0b0b0', 2), 'Annabel', 'Kowalczyk', 'Active', {
    employeeNumber: '0043600',
    email: 'anna.kowalczyk@example.com',
    grade: '7',
    backupEmail: 'none',
  }),
  // "4360" sits inside this UUID, not at its start.
  employee(uuid('aa114360', 3), 'Jürgen', 'Müller', 'On leave', {
    employeeNumber: '0000436',
    email: 'j.mueller@example.com',
    grade: '3',
  }),
  // ... and inside this employee number.
  employee(uuid('d00dd00d', 4), 'Søren', 'Sørensen', 'Active', {
    employeeNumber: '1004360',
    email: 'soren.sorensen@example.com',
    grade: '3',
  }),
  // ... and at the start of this UUID: digits alone are read as a number, not as a UUID's start.
  employee(uuid('4360beef', 5), 'Hans', 'Weiß', 'Active', {
    employeeNumber: '0000001',
    email: 'hans.weiss@example.com',
    grade: '7',
  }),
  employee(uuid('e1e1e1e1', 6), 'Käthe', 'Schröder', 'Terminated', {
    employeeNumber: '0000002',
    email: 'kaethe.schroeder@example.com',
    grade: '7',
  }),
  employee(uuid('f2f2f2f2', 7), 'José', 'Åberg', 'Active', {
    employeeNumber: '0000003',
    email: 'jose.aberg@example.com',
    grade: '3',
  }),
  employee(uuid('a3a3a3a3', 8), 'Sören', 'Mueller', 'Active', {
    employeeNumber: '0000004',
    email: 'soeren.mueller@example.com',
    grade: '7',
  }),
]
const name = (row: EmployeeRow): string => `${String(row['firstName'])} ${String(row['lastName'])}`

describe('the default search box', () => {
  let cleanup: () => void
  let cache: CacheDatabase
  let engine: QueryEngine
  const names = (query: EmployeeQuery): string[] => engine.query(query).rows.map(name)
  const find = (text: string): string[] => names({ text })

  beforeAll(async () => {
    const temp = makeTempDir()
    cleanup = temp.cleanup
    cache = openCacheDatabase(join(temp.dir, 'cache.db'), { key: TEST_CACHE_KEY })
    await seedSnapshot(cache, ROWS)
    engine = new QueryEngine(cache)
  })
  afterAll(() => {
    cache.close()
    cleanup()
  })

  it('decides the identifier columns from their values, and says so in the column list', () => {
    const identifiers = engine
      .listColumns()
      .filter((column) => column.identifier !== undefined)
      .map((column) => [column.key, column.identifier])
    // grade: digits, but shared by many employees; backupEmail: one value is not an address.
    expect(identifiers).toEqual([
      ['UUID', 'uuid'],
      ['employeeNumber', 'number'],
      ['email', 'email'],
    ])
    expect(find('7')).toEqual([])
    expect(names({ text: '7', column: 'grade' })).toHaveLength(5)
    expect(find('anna@home')).toEqual([])
  })

  it('finds an employee number with or without its leading zeros, the whole number first', () => {
    expect(find('0004360')).toEqual(['Anna Kowalski'])
    expect(find('04360')).toEqual(['Anna Kowalski'])
    // Then 0043600 by prefix without its zeros. Never Müller (4360 inside the UUID), Sørensen (1004360) nor
    // Weiß (a UUID starting 4360: to a clerk, digits are a number).
    expect(find('4360')).toEqual(['Anna Kowalski', 'Annabel Kowalczyk'])
    expect(find('436')).toEqual(['Jürgen Müller', 'Annabel Kowalczyk', 'Anna Kowalski'])
    // Typed with zeros, a number is read as typed: 00436 is the start of 0043600, and the whole of 0000436.
    expect(find('00436')).toEqual(['Jürgen Müller', 'Annabel Kowalczyk'])
    expect(find('1004360')).toEqual(['Søren Sørensen'])
    expect(find('360')).toEqual([])
  })

  it('finds an e-mail address whole or from its start, never from the middle', () => {
    expect(find('anna.k')).toEqual(['Annabel Kowalczyk', 'Anna Kowalski'])
    expect(find('anna.kowalski@example.com')).toEqual(['Anna Kowalski'])
    expect(find('ANNA.Kowalski@Example.COM')).toEqual(['Anna Kowalski'])
    expect(find('kowalski@example.com')).toEqual([])
    expect(find('example.com')).toEqual([])
    expect(find('kowalski')).toEqual(['Anna Kowalski'])
  })

  it('finds a UUID whole or by its start, never by a fragment from the middle', () => {
    expect(find(uuid('aa114360', 3))).toEqual(['Jürgen Müller'])
    expect(find(uuid('AA114360', 3).toUpperCase())).toEqual(['Jürgen Müller'])
    expect(find('aa11')).toEqual(['Jürgen Müller'])
    // Digits alone are a UUID's start only from its whole first group; with a letter, from four characters.
    expect(find('4360beef')).toEqual(['Hans Weiß'])
    expect(find('4360b')).toEqual(['Hans Weiß'])
    expect(names({ text: '4360', column: 'UUID' })).toEqual(['Hans Weiß'])
    expect(find('c0ffee')).toEqual(['Anna Kowalski'])
    expect(find('4360-')).toEqual([])
    expect(find('0000-4000')).toEqual([])
  })

  it('in "Search in: UUID", finds any part of a UUID from eight characters, anywhere in it', () => {
    const inUuid = (text: string): string[] => names({ text, column: 'UUID' })
    // The middle of Müller's UUID (aa114360-0000-4000-8000-000000000003), across its hyphens, any case.
    expect(inUuid('4000-8000-000000000003')).toEqual(['Jürgen Müller'])
    expect(inUuid('114360-0')).toEqual(['Jürgen Müller'])
    expect(inUuid('00000000000')).toHaveLength(ROWS.length)
    expect(inUuid('0000000000000000')).toEqual([])
    expect(inUuid('60BEEF-0')).toEqual(['Hans Weiß'])
    // Under eight characters only a start counts: "4360" starts Weiß's UUID and sits inside Müller's.
    expect(inUuid('114360')).toEqual([])
    // Digits and hyphens alone may be a phone number or a date: the default search reads them from a UUID's start.
    expect(find('114360-0')).toEqual([])
    expect(find('0000-4000')).toEqual([])
    // A part that is the whole UUID is still an exact match, listed first.
    expect(inUuid(uuid('aa114360', 3))).toEqual(['Jürgen Müller'])
  })

  it('finds a pasted part of a UUID (hexadecimal, a hyphen, digits and a–f letters) anywhere in it by default', () => {
    // A tail of Weiß's UUID (4360beef-0000-4000-8000-000000000005), as copied out of a log line or an e-mail.
    expect(find('60beef-0000-4000')).toEqual(['Hans Weiß'])
    expect(find('FFEE00-0000')).toEqual(['Anna Kowalski'])
    // Under eight characters, or without a letter a–f, only a start counts.
    expect(find('beef-00')).toEqual([])
    // With a name: every word must match.
    expect(find('Hans 60beef-0000')).toEqual(['Hans Weiß'])
    expect(find('Anna 60beef-0000')).toEqual([])
  })

  it('offers the closest saved names for a near-miss, spelled as saved, over the columns searched', () => {
    // "Mueler" is one edit from "muller", the search form of both Müller and Mueller: two employees.
    expect(engine.suggest('Mueler')).toEqual([{ text: 'Müller', name: 'Müller', employees: 2 }])
    expect(engine.suggest('Kowalsky')[0]).toEqual({ text: 'Kowalski', name: 'Kowalski', employees: 1 })
    expect(engine.suggest('Anna Kowalsky')[0]?.text).toBe('Anna Kowalski')
    expect(engine.suggest('Kowalsky', 'firstName')).toEqual([])
    expect(engine.suggest('Kowalsky', 'lastName').map((s) => s.name)).toEqual(['Kowalski'])
    expect(engine.suggest('Kowalsky', 'email')).toEqual([])
    expect(() => engine.suggest('Kowalsky', 'nosuchcolumn')).toThrow()
  })

  it('finds names in any word order, accents folded and common transliterations understood', () => {
    expect(find('Mueller')).toEqual(['Sören Mueller', 'Jürgen Müller'])
    expect(find('Müller')).toEqual(['Sören Mueller', 'Jürgen Müller'])
    expect(find('muller')).toEqual(['Sören Mueller', 'Jürgen Müller'])
    expect(find('Juergen')).toEqual(['Jürgen Müller'])
    expect(find('Soren')).toEqual(['Sören Mueller', 'Søren Sørensen'])
    expect(find('Soeren Mue')).toEqual(['Sören Mueller'])
    expect(find('Weiss')).toEqual(['Hans Weiß'])
    expect(find('Kaethe Schroeder')).toEqual(['Käthe Schröder'])
    expect(find('schroder kathe')).toEqual(['Käthe Schröder'])
    expect(find('Aaberg')).toEqual(['José Åberg'])
    expect(find('Jose')).toEqual(['José Åberg'])
  })

  it('lists exact identifier matches first whatever the sort, then the rest in that sort', () => {
    expect(names({ text: '436', sort: { column: 'lastName', order: 'desc' } })).toEqual([
      'Jürgen Müller',
      'Anna Kowalski',
      'Annabel Kowalczyk',
    ])
    expect(names({ text: '4360', offset: 1, limit: 1 })).toEqual(['Annabel Kowalczyk'])
    expect(names({ text: '4360', offset: 0, limit: 1 })).toEqual(['Anna Kowalski'])
    expect(engine.query({ text: '4360', limit: 1 }).total).toBe(2)
    const exported = [...engine.iterateRows({ text: '436' }, 2)].flat().map(name)
    expect(exported).toEqual(find('436'))
    // Filtered out, an exact match is not listed at all.
    expect(names({ text: '436', statuses: ['Active'] })).toEqual(['Annabel Kowalczyk', 'Anna Kowalski'])
    // Several words: every word must match; a whole identifier among them still comes first.
    expect(find('anna 0043600')).toEqual(['Annabel Kowalczyk'])
  })

  it('applies the identifier rules when "Search in" narrows to an identifier column', () => {
    expect(names({ text: '4360', column: 'employeeNumber' })).toEqual(['Anna Kowalski', 'Annabel Kowalczyk'])
    expect(names({ text: '0004360', column: 'employeeNumber' })).toEqual(['Anna Kowalski'])
    // The column's words still count there, as for any column.
    expect(names({ text: 'kowalczyk', column: 'email' })).toEqual(['Annabel Kowalczyk'])
    expect(names({ text: '4360', column: 'email' })).toEqual([])
  })

  it('keeps the identifier indexes in the snapshot, so opening it reads them rather than the rows', () => {
    const reader = SnapshotReader.open(cache.currentSnapshotInfo()?.path ?? '', TEST_CACHE_KEY, 0)
    try {
      const stored = decodeStoredIndex(reader.storedIndexParts())
      expect(stored?.identifiers.map((column) => [column.key, column.role])).toEqual([
        ['employeeNumber', 'number'],
        ['email', 'email'],
      ])
      // Numbers are stored as sent, with the most zeros any has (for looking up "4360" as 0004360).
      expect(stored?.identifiers[0]?.tokens.termCount).toBe(ROWS.length)
      expect(stored?.identifiers[0]?.maxLeadingZeros).toBe(6)
      expect(stored?.identifiers[1]?.tokens.term(0)).toBe('anna.kowalczyk@example.com')
    } finally {
      reader.close()
    }
  })

  it('answers with the same rules from a cache whose stored index is of an older version', async () => {
    const temp = makeTempDir()
    const old = openCacheDatabase(join(temp.dir, 'old.db'), { key: TEST_CACHE_KEY })
    try {
      await seedSnapshot(old, ROWS)
      const raw = rawDatabase(old.currentSnapshotInfo()?.path ?? '')
      // An index as RosterDesk wrote it before this version: version 1, names only, terms in the JSON.
      raw.prepare('DELETE FROM search_index').run()
      raw.prepare('INSERT INTO search_index (part, data) VALUES (?, ?)').run(
        'meta',
        Buffer.from(
          JSON.stringify({
            version: 1,
            count: ROWS.length,
            statuses: [],
            cycles: [],
            firstTerms: [],
            lastTerms: [],
          }),
        ),
      )
      raw.close()
      expect(STORED_INDEX_VERSION).toBeGreaterThan(1)
      const reopened = new QueryEngine(old)
      for (const text of [
        '4360',
        '0004360',
        'anna.k',
        'anna.kowalski@example.com',
        'Mueller',
        'aa11',
        'soeren',
      ]) {
        expect(reopened.query({ text, facets: true }), text).toEqual(engine.query({ text, facets: true }))
      }
      expect(reopened.listColumns()).toEqual(engine.listColumns())
    } finally {
      old.close()
      temp.cleanup()
    }
  })
})
