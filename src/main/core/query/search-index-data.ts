import type { DiscoveredIdentifierRole } from './column-role'
import type { SortOrder } from './sort-order'
import type { TokenIndex } from './token-index'

/**
 * The shape of a snapshot's search index, apart from the SearchIndex class (search-index.ts) that answers with
 * it, so that stored-index.ts, which encodes and decodes it, sits below that class: search-index.ts imports
 * stored-index.ts, never the other way.
 */

/** The prefix index of one identifier column (see column-role.ts), over its identifier tokens. */
export interface IdentifierIndex {
  readonly key: string
  readonly role: DiscoveredIdentifierRole
  /** The most leading zeros of any number in the column: how many paddings a typed number is looked up in. */
  readonly maxLeadingZeros: number
  readonly tokens: TokenIndex
}

/** The typed arrays and dictionaries a SearchIndex is made of; also what is stored with a snapshot. */
export interface SearchIndexData {
  /** Snapshot id of each slot, ascending. */
  readonly ids: Float64Array
  /** Status code per slot; `statuses[code]` is the value ('' for rows without one). */
  readonly status: Uint32Array
  readonly statuses: readonly string[]
  /** Pay cycles per slot as CSR: codes cycleCodes[cycleStart[slot] .. cycleStart[slot + 1]) into `cycles`. */
  readonly cycleStart: Uint32Array
  readonly cycleCodes: Uint32Array
  readonly cycles: readonly string[]
  readonly firstNames: TokenIndex
  readonly lastNames: TokenIndex
  /** The snapshot's identifier columns, in the order the service's rows first showed them. */
  readonly identifiers: readonly IdentifierIndex[]
  /** Last name, first name, then the service's order. */
  readonly defaultOrder: SortOrder
}
