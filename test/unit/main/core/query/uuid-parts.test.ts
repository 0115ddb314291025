import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { UuidParts } from '../../../../../src/main/core/query/uuid-parts'

/** "Search in: UUID" parts: every key holding the part, by slot, each once, as `includes` says. */

describe('UUID parts', () => {
  it('find the slots whose key holds a part anywhere, each once', () => {
    const parts = UuidParts.fromKeys([
      'aa114360-0000-4000-8000-000000000003',
      '',
      '4360beef-0000-4000-8000-000000000005',
      'c0ffee00-4360-4360-8000-000000000001',
      'ünïcode-4360',
    ])
    expect(parts.count).toBe(5)
    expect(parts.slotsContaining('4360')).toEqual([0, 2, 3, 4])
    expect(parts.slotsContaining('0000-4000-8000')).toEqual([0, 2])
    expect(parts.slotsContaining('000000000001')).toEqual([3])
    expect(parts.slotsContaining('0003\n4360')).toEqual([])
    expect(parts.slotsContaining('')).toEqual([])
    // A joined text that does not hold as many keys as it says is refused (the caller reads them one by one).
    expect(UuidParts.fromJoined('a\nb\nc', 2)).toBeNull()
    expect(UuidParts.fromJoined('a\nb', 3)).toBeNull()
  })

  it('agree with includes over any keys and part (property)', () => {
    const key = fc.string({ unit: fc.constantFrom('a', 'b', '0', '-', 'é'), maxLength: 12 })
    fc.assert(
      fc.property(
        fc.array(key, { maxLength: 30 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '0', '-'), minLength: 1, maxLength: 4 }),
        (keys, part) => {
          const expected = keys.flatMap((value, slot) => (value.includes(part) ? [slot] : []))
          expect(UuidParts.fromKeys(keys).slotsContaining(part)).toEqual(expected)
          expect(UuidParts.fromJoined(keys.join('\n'), keys.length)?.slotsContaining(part)).toEqual(expected)
        },
      ),
      { numRuns: 500 },
    )
  })
})
