import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { foldSearchWord, tokenize } from '../../../../../src/main/core/text/text-fold'
import {
  allowedEdits,
  nameSuggestions,
  nearMissDistance,
  nearTerms,
} from '../../../../../src/main/core/query/near-miss'
import type { NameField, NameTerms } from '../../../../../src/main/core/query/near-miss'
import { TokenIndex } from '../../../../../src/main/core/query/token-index'
import { NEAR_MISS_MAX_SUGGESTIONS } from '../../../../../src/shared/near-miss'

/** Optimal-string-alignment distance, the textbook table: the reference the scanner is held to. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[]
      const above = d[i - 1] as number[]
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] ?? 0) + 1)
      }
      row[j] = best
    }
  }
  return (d[a.length] as number[])[b.length] ?? 0
}

/** nearMissDistance restated: the whole name, or one more than the closest start of it; 0 when the word starts it. */
function reference(word: string, term: string): number {
  let prefix = Infinity
  for (let end = 0; end <= term.length; end++) prefix = Math.min(prefix, osa(word, term.slice(0, end)))
  return prefix === 0 ? 0 : Math.min(osa(word, term), prefix + 1)
}

/** Same answer as the scanner, by brute force over every term. */
function referenceNear(word: string, terms: readonly string[], limit: number): string[] {
  const edits = allowedEdits(word.length)
  if (edits === 0) return []
  return [...new Set(terms)]
    .map((term) => ({ term, distance: reference(word, term), rows: terms.filter((t) => t === term).length }))
    .filter((t) => t.distance > 0 && t.distance <= edits)
    .sort((a, b) => a.distance - b.distance || b.rows - a.rows || (a.term < b.term ? -1 : 1))
    .slice(0, limit)
    .map((t) => t.term)
}

function indexOf(values: readonly string[]): TokenIndex {
  return TokenIndex.build(
    values.map((value, slot) => [slot, value] as const),
    values.length,
  )
}

function namesOf(rows: ReadonlyArray<{ firstName: string; lastName: string }>): {
  names: NameTerms[]
  spell: (field: NameField, slot: number) => string | undefined
} {
  return {
    names: [
      { field: 'lastName', index: indexOf(rows.map((row) => row.lastName)) },
      { field: 'firstName', index: indexOf(rows.map((row) => row.firstName)) },
    ],
    spell: (field, slot) => rows[slot]?.[field],
  }
}

const ROWS = [
  { firstName: 'Anna', lastName: 'Smith' },
  { firstName: 'John', lastName: 'Smith' },
  { firstName: 'Ali', lastName: 'Smithers' },
  { firstName: 'Maria', lastName: 'Rodríguez' },
  { firstName: 'Aminu', lastName: 'Abubakar' },
  { firstName: 'Jörg', lastName: 'Müller' },
  { firstName: 'Smith', lastName: 'Jones' },
  { firstName: 'Ola', lastName: 'Smith-Jones' },
]

describe('near-miss distance', () => {
  it('counts a swap of neighbours, an insertion, a deletion and a substitution as one edit each', () => {
    expect(nearMissDistance('smtih', 'smith', 2)).toBe(1)
    expect(nearMissDistance('rodriquez', 'rodriguez', 2)).toBe(1)
    expect(nearMissDistance('abubaker', 'abubakar', 2)).toBe(1)
    expect(nearMissDistance('smih', 'smith', 1)).toBe(1)
  })

  it('scores a typo in a name still being typed by the closest start of the name, plus one', () => {
    expect(nearMissDistance('rodriq', 'rodriguez', 2)).toBe(2)
    expect(nearMissDistance('smi', 'smith', 1)).toBe(0) // a start: the search itself finds it
  })

  it('agrees with the textbook table for any word and name (property)', () => {
    const letters = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 9 })
    fc.assert(
      fc.property(letters, letters, (word, term) => {
        const limit = Math.max(1, allowedEdits(word.length))
        const expected = reference(word, term)
        const got = nearMissDistance(word, term, limit)
        if (expected <= limit) expect(got).toBe(expected)
        else expect(got).toBeGreaterThan(limit)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('near terms over a sorted term list', () => {
  it('match scoring every term on its own, whatever the list (property: rows shared between neighbours)', () => {
    const letters = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), minLength: 1, maxLength: 8 })
    fc.assert(
      fc.property(fc.array(letters, { minLength: 1, maxLength: 60 }), letters, (values, word) => {
        // The index holds tokens in their search form ("aa" reads "a", text-fold.ts), and so is a typed word.
        const typed = foldSearchWord(word)
        const near = nearTerms(typed, [indexOf(values)], NEAR_MISS_MAX_SUGGESTIONS).map((t) => t.term)
        const tokens = values.flatMap((value) => tokenize(value))
        expect(near).toEqual(referenceNear(typed, tokens, NEAR_MISS_MAX_SUGGESTIONS))
      }),
      { numRuns: 500 },
    )
  })

  it('never offers more than five names, nor a name the word already starts', () => {
    const values = ['smith', 'smyth', 'smithe', 'smitt', 'smit', 'snith', 'smiths', 'simth', 'amith']
    const near = nearTerms('smith', [indexOf(values)], NEAR_MISS_MAX_SUGGESTIONS)
    expect(near.length).toBe(NEAR_MISS_MAX_SUGGESTIONS)
    expect(near.every((t) => !t.term.startsWith('smith'))).toBe(true)
  })
})

describe('did you mean', () => {
  const { names, spell } = namesOf(ROWS)

  it('offers the saved spelling of the closest names, the most common first', () => {
    // One edit for a word under eight letters: Smith (a swap), not Smithers. Smith is a first name too: 4 people.
    expect(nameSuggestions('Smtih', names, spell)).toEqual([{ text: 'Smith', name: 'Smith', employees: 4 }])
    // Two edits from eight letters.
    expect(nameSuggestions('Smitherz', names, spell).map((s) => s.name)).toEqual(['Smithers'])
  })

  it('folds accents and transliterations on both sides', () => {
    expect(nameSuggestions('Rodriquez', names, spell)[0]).toMatchObject({ name: 'Rodríguez', employees: 1 })
    expect(nameSuggestions('Abubaker', names, spell)[0]).toMatchObject({ name: 'Abubakar' })
    // "Mueler" is "muler" to the index, one edit from Müller's "muller".
    expect(foldSearchWord('Mueler')).toBe('muler')
    expect(nameSuggestions('Mueler', names, spell)[0]).toMatchObject({ name: 'Müller', text: 'Müller' })
  })

  it('replaces only the near-missed word of a longer search', () => {
    expect(nameSuggestions('Anna Smtih', names, spell)[0]?.text).toBe('Anna Smith')
  })

  it('leaves numbers, addresses, short words and words that find people alone', () => {
    expect(nameSuggestions('0004360', names, spell)).toEqual([])
    expect(nameSuggestions('smtih@example.com', names, spell)).toEqual([])
    expect(nameSuggestions('Sm', names, spell)).toEqual([])
    expect(nameSuggestions('Smith', names, spell)).toEqual([])
  })

  it('spells a name found inside a joined name as its part', () => {
    const joined = namesOf([{ firstName: 'Ola', lastName: 'Smith-Jones' }])
    expect(nameSuggestions('Jomes', joined.names, joined.spell)[0]).toMatchObject({ name: 'Jones' })
  })
})
