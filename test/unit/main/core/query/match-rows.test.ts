import { describe, expect, it } from 'vitest'
import type { FacetCount } from '../../../../../src/shared/domain/query'
import { adoptRowGroups, matchRows, rowGroups } from '../../../../../src/main/core/query/match-rows'
import type { MatchIndex, WordMarker } from '../../../../../src/main/core/query/match-rows'
import type { SearchWord } from '../../../../../src/main/core/query/search-rules'
import { createRng } from '../../../../../src/main/sandbox/random'

/**
 * matchRows decides filters and facets per row group; here it is held to the rules restated row by row (a row
 * is in the result when every word marked it, its status is allowed and one of its pay cycles is; each facet
 * counts the rows the other filters and the text keep), over random indexes whose rows have no pay cycle, one,
 * or several (repeats included), and random searches, run back to back on one index as the engine runs them.
 */

const STATUS_VALUES = ['', 'Active', 'On leave', 'Pending', 'Suspended', 'Terminated']
const CYCLE_VALUES = ['', 'PC-A', 'PC-B', 'PC-C', 'PC-D']

interface TestIndex extends MatchIndex {
  readonly cyclesOf: number[][]
}

function randomIndex(random: () => number, count: number): TestIndex {
  const status = new Uint32Array(count)
  const cyclesOf: number[][] = []
  for (let slot = 0; slot < count; slot++) {
    status[slot] = Math.floor(random() * STATUS_VALUES.length)
    const shape = random()
    const list: number[] = []
    // Mostly one cycle, as the service lists them; some rows in none, some in several (a repeat now and then).
    const length = shape < 0.15 ? 0 : shape < 0.75 ? 1 : 2 + Math.floor(random() * 3)
    for (let i = 0; i < length; i++) list.push(1 + Math.floor(random() * (CYCLE_VALUES.length - 1)))
    cyclesOf.push(list)
  }
  const cycleStart = new Uint32Array(count + 1)
  const codes: number[] = []
  cyclesOf.forEach((list, slot) => {
    cycleStart[slot] = codes.length
    codes.push(...list)
  })
  cycleStart[count] = codes.length
  const statusPresent = new Uint8Array(STATUS_VALUES.length)
  status.forEach((code) => (statusPresent[code] = 1))
  const cyclePresent = new Uint8Array(CYCLE_VALUES.length)
  codes.forEach((code) => (cyclePresent[code] = 1))
  return {
    count,
    status,
    statuses: STATUS_VALUES,
    statusPresent,
    cycleStart,
    cycleCodes: Uint32Array.from(codes),
    cycles: CYCLE_VALUES,
    cyclePresent,
    cyclesOf,
  }
}

interface RandomQuery {
  /** The rows each word matches. */
  readonly wordRows: ReadonlyArray<ReadonlySet<number>>
  readonly statuses?: string[]
  readonly payCycleIds?: string[]
}

function randomQuery(random: () => number, count: number): RandomQuery {
  const words = random() < 0.3 ? 0 : 1 + Math.floor(random() * 3)
  const wordRows = Array.from({ length: words }, () => {
    const share = random() < 0.5 ? 0.05 : 0.6
    const rows = new Set<number>()
    for (let slot = 0; slot < count; slot++) if (random() < share) rows.add(slot)
    return rows
  })
  const some = (values: readonly string[]) =>
    values.filter(() => random() < 0.4).concat(random() < 0.2 ? ['not in the cache'] : [])
  return {
    wordRows,
    ...(random() < 0.5 ? { statuses: some(STATUS_VALUES.slice(1)) } : {}),
    ...(random() < 0.5 ? { payCycleIds: some(CYCLE_VALUES.slice(1)) } : {}),
  }
}

const word = (i: number): SearchWord => ({ folded: `w${i}`, uuid: null, identifier: `w${i}` })

/** Marks as a token index does (TokenIndex.markPrefix): only rows every earlier word marked. */
function markerOf(query: RandomQuery): WordMarker {
  return (searched, mark, from) => {
    const rows = query.wordRows[Number(searched.folded.slice(1))] ?? new Set<number>()
    for (const slot of rows) if (mark[slot] === from) mark[slot] = from + 1
  }
}

function naive(index: TestIndex, query: RandomQuery) {
  const wanted = (filter: readonly string[] | undefined, value: string) =>
    filter === undefined || filter.length === 0 || filter.includes(value)
  const slots: number[] = []
  const statusCounts = new Map<string, number>()
  const cycleCounts = new Map<string, number>()
  for (let slot = 0; slot < index.count; slot++) {
    if (!query.wordRows.every((rows) => rows.has(slot))) continue
    const status = STATUS_VALUES[index.status[slot] ?? 0] ?? ''
    const cycles = (index.cyclesOf[slot] ?? []).map((code) => CYCLE_VALUES[code] ?? '')
    const statusOk = wanted(query.statuses, status)
    const cycleOk =
      query.payCycleIds === undefined ||
      query.payCycleIds.length === 0 ||
      cycles.some((cycle) => query.payCycleIds?.includes(cycle))
    if (cycleOk) statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1)
    if (statusOk) for (const cycle of cycles) cycleCounts.set(cycle, (cycleCounts.get(cycle) ?? 0) + 1)
    if (statusOk && cycleOk) slots.push(slot)
  }
  const facet = (values: readonly string[], present: Uint8Array, counts: Map<string, number>): FacetCount[] =>
    values
      .filter((_, code) => present[code] === 1)
      .map((value) => ({ value, count: counts.get(value) ?? 0 }))
      .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
  return {
    slots,
    facets: {
      status: facet(STATUS_VALUES, index.statusPresent, statusCounts),
      payCycle: facet(CYCLE_VALUES, index.cyclePresent, cycleCounts),
    },
  }
}

function run(index: MatchIndex, query: RandomQuery, slotsBuffer?: Uint32Array) {
  const result = matchRows(index, {
    words: query.wordRows.map((_, i) => word(i)),
    marker: markerOf(query),
    ...(query.statuses === undefined ? {} : { statuses: query.statuses }),
    ...(query.payCycleIds === undefined ? {} : { payCycleIds: query.payCycleIds }),
    facets: true,
    ...(slotsBuffer === undefined ? {} : { slotsBuffer }),
  })
  const slots = Array.from(result.slots.subarray(0, result.total))
  const selected: number[] = []
  result.selected.forEach((flag, slot) => {
    if (flag === 1) selected.push(slot)
  })
  return { slots, selected, facets: result.facets }
}

describe('matchRows', () => {
  it('selects and counts facets exactly as the rules say, row by row, query after query', () => {
    const random = createRng(13)
    for (const count of [1, 7, 300, 2000]) {
      const index = randomIndex(random, count)
      const scratch = new Uint32Array(count)
      for (let q = 0; q < 60; q++) {
        const query = randomQuery(random, count)
        const expected = naive(index, query)
        // With the engine's reused buffers, then with fresh ones: a result never depends on the one before.
        for (const buffer of [scratch, undefined]) {
          const actual = run(index, query, buffer)
          expect(actual.slots).toEqual(expected.slots)
          expect(actual.selected).toEqual(expected.slots)
          expect(actual.facets).toEqual(expected.facets)
        }
      }
    }
  })

  it('answers the same with groups made elsewhere and sent over, as the core worker sends them', () => {
    const random = createRng(29)
    const index = randomIndex(random, 1500)
    const copy = { ...index }
    expect(adoptRowGroups(copy, structuredClone(rowGroups(index)))).toBe(true)
    for (let q = 0; q < 40; q++) {
      const query = randomQuery(random, index.count)
      expect(run(copy, query, new Uint32Array(index.count))).toEqual(run(index, query))
    }
  })

  it('refuses groups made for another index, and then makes its own', () => {
    const random = createRng(31)
    const index = randomIndex(random, 400)
    const other = randomIndex(random, 401)
    expect(adoptRowGroups(index, rowGroups(other))).toBe(false)
    const query = randomQuery(random, index.count)
    expect(run(index, query).slots).toEqual(naive(index, query).slots)
  })

  it('refuses groups of the same size made for other rows (statuses or pay cycles moved)', () => {
    const random = createRng(41)
    const index = randomIndex(random, 600)
    const swapped = { ...index, status: index.status.slice().reverse() }
    expect(adoptRowGroups({ ...index }, rowGroups(swapped))).toBe(false)
    const moved = { ...index, cycleCodes: index.cycleCodes.map((code) => (code % 4) + 1) }
    expect(adoptRowGroups({ ...index }, rowGroups(moved))).toBe(false)
    const broken = structuredClone(rowGroups(index))
    broken.group[7] = broken.count
    expect(adoptRowGroups({ ...index }, broken)).toBe(false)
  })

  it('groups rows of an index with no pay cycles at all by status alone', () => {
    const index = randomIndex(createRng(43), 300)
    const bare = { ...index, cycles: [], cycleStart: new Uint32Array(301), cycleCodes: new Uint32Array(0) }
    expect(rowGroups(bare).count).toBe(new Set(index.status).size)
    const query = { wordRows: [], statuses: ['Active', 'Pending'] }
    const cyclesOf = index.cyclesOf.map(() => [])
    expect(run({ ...bare }, query).slots).toEqual(naive({ ...bare, cyclesOf }, query).slots)
  })

  it('keeps every row in slot order when nothing filters, and says so in the facets', () => {
    const index = randomIndex(createRng(37), 500)
    const everything = run(index, { wordRows: [] })
    expect(everything.slots).toEqual(Array.from({ length: 500 }, (_, slot) => slot))
    expect(everything).toEqual(run(index, { wordRows: [], statuses: [], payCycleIds: [] }))
    expect(everything.facets).toEqual(naive(index, { wordRows: [] }).facets)
  })
})
