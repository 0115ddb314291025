import { describe, expect, it } from 'vitest'
import { sortByTerm } from '../../../../../src/main/core/query/term-sort'
import { drain, TokenIndex } from '../../../../../src/main/core/query/token-index'
import { createRng } from '../../../../../src/main/sandbox/random'

/**
 * Identifier indexes sort their terms with a radix quicksort of their own; prefix look-ups are only right if that
 * order is exactly the one string comparison gives, on every kind of input.
 */

function words(seed: number, count: number, alphabet: string, longest: number): string[] {
  const random = createRng(seed)
  const letters = [...alphabet]
  return Array.from({ length: count }, () =>
    Array.from(
      { length: Math.floor(random() * (longest + 1)) },
      () => letters[Math.floor(random() * letters.length)],
    ).join(''),
  )
}

function sortedByTerm(terms: readonly string[]): string[] {
  const order = Uint32Array.from(terms.keys())
  sortByTerm(terms, order)
  return Array.from(order, (i) => terms[i] ?? '')
}

describe('sortByTerm', () => {
  it('orders as string comparison does: prefixes first, repeats, empty terms, beyond Latin-1 and surrogates', () => {
    const inputs = [
      [],
      ['b'],
      ['b', 'a'],
      words(1, 2_000, 'ab', 6),
      words(2, 2_000, 'abcz.@0', 12),
      words(3, 2_000, 'aéüłś田😀', 5),
      words(4, 500, 'a', 40),
      Array.from({ length: 3_000 }, (_, i) => `person.${i % 700}@corp.example`),
      Array.from({ length: 3_000 }, (_, i) => String(i).padStart(7, '0')).reverse(),
      // Past the radix depth: long shared prefixes, long repeated values, runs of equal terms.
      Array.from({ length: 3_000 }, (_, i) => `${'x'.repeat(60)}${(i * 7919) % 3_000}@b.c`),
      Array.from({ length: 3_000 }, (_, i) => (i === 1_500 ? 'a@b.c' : `${'x'.repeat(60)}@b.c`)),
      Array.from({ length: 3_000 }, (_, i) => `${'x'.repeat(50)}${i % 2}${'y'.repeat(i % 7)}`),
      Array.from({ length: 3_000 }, (_, i) => `${'q'.repeat(i % 30)}${i % 3}`),
    ]
    for (const terms of inputs) {
      expect(sortedByTerm(terms)).toEqual([...terms].sort())
    }
  })

  it('keeps every index once', () => {
    const terms = words(5, 5_000, 'xyz', 4)
    const order = Uint32Array.from(terms.keys())
    sortByTerm(terms, order)
    expect([...order].sort((a, b) => a - b)).toEqual([...terms.keys()])
  })
})

describe('TokenIndex.fromSlotTerms', () => {
  it('lists each distinct term once, sorted, with its rows ascending, and finds by prefix as the strings would', () => {
    const random = createRng(9)
    // Every third slot empty; terms repeat, so repeated terms' rows must come back in slot order.
    const slots: number[] = []
    const terms: string[] = []
    const all = words(6, 3_000, 'ab.@0é', 5).map((word) => word || 'a')
    all.forEach((term, slot) => {
      if (slot % 3 === 2) return
      slots.push(slot)
      terms.push(term)
    })
    const index = drain(TokenIndex.fromSlotTerms(Uint32Array.from(slots), terms))
    const distinct = [...new Set(terms)].sort()
    expect(index.termCount).toBe(distinct.length)
    expect(Array.from({ length: index.termCount }, (_, i) => index.term(i))).toEqual(distinct)
    for (const term of distinct.slice(0, 50)) {
      expect([...index.slotsOf(term)]).toEqual(slots.filter((_, i) => terms[i] === term))
    }
    for (let i = 0; i < 200; i++) {
      const source = terms[Math.floor(random() * terms.length)] ?? ''
      const prefix = source.slice(0, 1 + Math.floor(random() * 3))
      const mark = new Uint8Array(all.length)
      index.markPrefix(prefix, mark, 0)
      const found = [...mark.keys()].filter((slot) => mark[slot] === 1)
      expect(found).toEqual(slots.filter((_, k) => (terms[k] ?? '').startsWith(prefix)))
    }
  })

  it('round-trips through its parts, and is empty for a column with no values', () => {
    const index = drain(TokenIndex.fromSlotTerms(Uint32Array.from([0, 2, 5]), ['b@x.io', 'a@x.io', 'b@x.io']))
    const reread = TokenIndex.fromParts(index.toParts(), 6)
    expect(reread?.termCount).toBe(2)
    expect([...(reread?.slotsOf('b@x.io') ?? [])]).toEqual([0, 5])
    const empty = drain(TokenIndex.fromSlotTerms(new Uint32Array(0), []))
    expect(empty.termCount).toBe(0)
    expect(TokenIndex.fromParts(empty.toParts(), 0)).not.toBeNull()
  })
})
