import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EmployeeRow, JsonValue } from '../../../../../src/shared/domain/rows'
import { ColumnCollector, inferKind, mergeKinds } from '../../../../../src/main/core/columns/column-inference'

describe('column inference', () => {
  it('infers a kind from one value; null says nothing', () => {
    expect(inferKind('2026-11-01')).toBe('date')
    expect(inferKind('2026-11-01T08:30:00Z')).toBe('date')
    expect(inferKind('2026-13-45')).toBe('text')
    expect(inferKind('0001234')).toBe('text')
    expect(inferKind(12.5)).toBe('number')
    expect(inferKind(false)).toBe('boolean')
    expect(inferKind({ a: 1 })).toBe('mixed')
    expect(inferKind(null)).toBeNull()
  })

  it('takes text that is a number a double cannot hold as written for a number (how a sync keeps one)', () => {
    expect(inferKind('12345678901234567890')).toBe('number')
    expect(inferKind('9007199254740993')).toBe('number')
    expect(inferKind('-1e400')).toBe('number')
    expect(inferKind('1e400')).toBe('number')
    // Text a double holds, or that is no JSON number, stays text.
    expect(inferKind('12345')).toBe('text')
    expect(inferKind('-5')).toBe('text')
    expect(inferKind('0012345678901234567')).toBe('text')
    const collector = new ColumnCollector()
    collector.observe({ UUID: 'a', account: 17 })
    collector.observe({ UUID: 'b', account: '12345678901234567890' })
    expect(collector.columns().find((column) => column.key === 'account')?.kind).toBe('number')
  })

  it('merges kinds: dates with free text are text, anything else disagreeing is mixed', () => {
    expect(mergeKinds(null, 'number')).toBe('number')
    expect(mergeKinds('date', 'text')).toBe('text')
    expect(mergeKinds('number', 'text')).toBe('mixed')
    expect(mergeKinds('boolean', null)).toBe('boolean')
  })

  it('lists the known fields first, then discovered ones in first-seen order, with presence counts', () => {
    const collector = new ColumnCollector()
    collector.observe({ UUID: 'a', lastName: 'Lee', hireDate: '2020-01-02', badge: 7 })
    collector.observe({ UUID: 'b', firstName: 'Bo', hireDate: 'unknown', badge: null, remote: true })
    const columns = collector.columns()
    expect(columns.map((c) => [c.key, c.kind, c.known, c.present])).toEqual([
      ['UUID', 'text', true, 2],
      ['firstName', 'text', true, 1],
      ['lastName', 'text', true, 1],
      ['employeeStatus', 'text', true, 0],
      ['hireDate', 'text', false, 2],
      ['badge', 'number', false, 1],
      ['remote', 'boolean', false, 1],
    ])
  })

  it('gives the kind and count of classifying every value, though it skips values that cannot change the kind', () => {
    const value: fc.Arbitrary<JsonValue | undefined> = fc.oneof(
      fc.constantFrom('2026-11-01', '2026-11-01T08:30:00Z', '2026-13-45', '0001234', 'Lee', '', '9 lives'),
      fc.string(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constantFrom<JsonValue | undefined>(null, undefined, { a: 1 }, [1, 'x']),
    )
    const row = fc.dictionary(fc.constantFrom('UUID', 'firstName', 'hireDate', 'badge', 'note'), value)
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        const collector = new ColumnCollector()
        for (const r of rows) collector.observe(r as EmployeeRow)
        // The plain rule: every value classified, kinds merged, presence counted for every value but null.
        const expected = new Map<string, { kind: ReturnType<typeof inferKind>; present: number }>()
        for (const r of rows) {
          for (const [key, v] of Object.entries(r)) {
            const tally = expected.get(key) ?? { kind: null, present: 0 }
            const kind = inferKind(v)
            if (kind !== null)
              expected.set(key, { kind: mergeKinds(tally.kind, kind), present: tally.present + 1 })
            else expected.set(key, tally)
          }
        }
        for (const column of collector.columns()) {
          const tally = expected.get(column.key) ?? { kind: null, present: 0 }
          expect([column.key, column.kind, column.present]).toEqual([
            column.key,
            tally.kind ?? 'text',
            tally.present,
          ])
        }
      }),
      { numRuns: 500 },
    )
  })
})
