/** Ranges this short are finished by insertion sort, comparing from the depth they already share. */
const SHORT_RANGE = 16

/**
 * Past this many shared code units a range is sorted by whole-string comparison instead (the native `<`, and
 * Array.prototype.sort's merge of runs): a radix pass per character would read a long shared prefix (or a long
 * repeated value) once per character for every term, 6 s for a million terms with 240 characters in common,
 * where comparing them is a native memory comparison and runs of equal terms cost one comparison each.
 */
export const RADIX_DEPTH = 12

/**
 * Sorts `order` (indexes into `terms`) so that their terms ascend in UTF-16 code unit order: the order `<` gives
 * strings and the order prefix ranges need (token-index.ts).
 *
 * A three-way radix quicksort (Bentley and Sedgewick, "Fast algorithms for sorting and searching strings", 1997)
 * on the first RADIX_DEPTH code units: each step partitions a range on one character, so a prefix a group of terms
 * shares is read once per term, not once per comparison. It sorts the indexes, which the native sort of the
 * strings themselves cannot, so building an index needs no look-up from a sorted term back to its rows (100,000
 * e-mail addresses: 16–29 ms against 31–46 ms for the native sort of the strings; a million: 0.3–0.5 s against
 * 0.4 s). Pivots are the median of three terms taken at random, so no order of the rows (the service's list
 * order) can make it quadratic; ranges still to sort are kept on an explicit stack rather than by recursion, so
 * no input can overflow the call stack. The result does not depend on the pivots: equal terms are equal.
 */
export function sortByTerm(terms: readonly string[], order: Uint32Array): void {
  // Terms already in order (a service listing by employee number) cost one comparison each, as with the native
  // sort; the radix sort would still partition them once per character.
  if (ascending(terms, order)) return
  // Triples (from, to, depth): order[from, to) shares its terms' first `depth` code units.
  const pending: number[] = [0, order.length, 0]
  while (pending.length > 0) {
    const depth = pending.pop() ?? 0
    const to = pending.pop() ?? 0
    const from = pending.pop() ?? 0
    if (to - from < SHORT_RANGE) {
      insertionSort(terms, order, from, to, depth)
      continue
    }
    if (depth >= RADIX_DEPTH) {
      compareSort(terms, order, from, to)
      continue
    }
    const span = to - from
    const pivot = medianOfThree(
      unitAt(terms, order, from + Math.floor(Math.random() * span), depth),
      unitAt(terms, order, from + Math.floor(Math.random() * span), depth),
      unitAt(terms, order, from + Math.floor(Math.random() * span), depth),
    )
    // [from, less) below the pivot's unit, [less, more] equal to it, (more, to) above it.
    let less = from
    let more = to - 1
    let i = from
    while (i <= more) {
      const unit = unitAt(terms, order, i, depth)
      if (unit < pivot) swap(order, less++, i++)
      else if (unit > pivot) swap(order, i, more--)
      else i++
    }
    pending.push(from, less, depth, more + 1, to, depth)
    // A pivot of -1 means every term in the middle ended at `depth`: they are equal, and sorted.
    if (pivot >= 0) pending.push(less, more + 1, depth + 1)
  }
}

function ascending(terms: readonly string[], order: Uint32Array): boolean {
  for (let i = 1; i < order.length; i++) {
    if ((terms[order[i - 1] ?? 0] ?? '') > (terms[order[i] ?? 0] ?? '')) return false
  }
  return true
}

/** The code unit of order[i]'s term at `depth`, or -1 past its end (a shorter term sorts first). */
function unitAt(terms: readonly string[], order: Uint32Array, i: number, depth: number): number {
  const term = terms[order[i] ?? 0] ?? ''
  return depth < term.length ? term.charCodeAt(depth) : -1
}

/** order[from, to) by whole terms; runs of equal or ordered terms are cheap for Array.prototype.sort. */
function compareSort(terms: readonly string[], order: Uint32Array, from: number, to: number): void {
  const range = Array.from(order.subarray(from, to))
  range.sort((a, b) => {
    const x = terms[a] ?? ''
    const y = terms[b] ?? ''
    return x < y ? -1 : x > y ? 1 : 0
  })
  order.set(range, from)
}

function medianOfThree(a: number, b: number, c: number): number {
  if (a < b) return b < c ? b : a < c ? c : a
  return a < c ? a : b < c ? c : b
}

function swap(order: Uint32Array, i: number, j: number): void {
  const kept = order[i] ?? 0
  order[i] = order[j] ?? 0
  order[j] = kept
}

function insertionSort(
  terms: readonly string[],
  order: Uint32Array,
  from: number,
  to: number,
  depth: number,
): void {
  for (let i = from + 1; i < to; i++) {
    const moving = order[i] ?? 0
    const term = terms[moving] ?? ''
    let j = i - 1
    while (j >= from && compareFrom(terms[order[j] ?? 0] ?? '', term, depth) > 0) {
      order[j + 1] = order[j] ?? 0
      j--
    }
    order[j + 1] = moving
  }
}

/** a against b by code units, both known to share their first `depth` units. */
function compareFrom(a: string, b: string, depth: number): number {
  const shared = Math.min(a.length, b.length)
  for (let k = depth; k < shared; k++) {
    const difference = a.charCodeAt(k) - b.charCodeAt(k)
    if (difference !== 0) return difference
  }
  return a.length - b.length
}
