import { describe, expect, it } from 'vitest'
import { ColumnCollector, inferKind, mergeKinds } from '../../../src/main/core/cache/column-inference'

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
})
