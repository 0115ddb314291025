import type { StoredValue } from '../snapshot/snapshot-reader'
import { TokenIndex } from './token-index'

/** The word-token index of one column's values (one per slot, `SnapshotReader.columnValues`), for "Search in". */
export function columnTokenIndex(values: readonly StoredValue[]): TokenIndex {
  return TokenIndex.build(
    (function* () {
      for (let slot = 0; slot < values.length; slot++) {
        const value = values[slot]
        if (value !== null && value !== undefined && value !== '') yield [slot, String(value)] as const
      }
    })(),
    values.length,
  )
}
