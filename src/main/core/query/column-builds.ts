import type { ColumnInfo } from '../../../shared/domain/rows'
import type { CheckedFile } from '../snapshot/snapshot-reader'
import type { SearchIndex } from './search-index'
import type { SortOrder } from './sort-order'
import type { TokenIndex } from './token-index'
import type { UuidPartsData } from './uuid-parts'

/**
 * A sort order, a "Search in" column index, or the UUIDs "Search in: UUID" finds parts of (uuid-parts.ts), which
 * a snapshot builds once, on first use.
 */
export interface ColumnBuild {
  readonly what: 'sort-order' | 'column-index' | 'uuid-parts'
  readonly column: string
  readonly kind: ColumnInfo['kind']
}

/** Which snapshot a build reads, by its file: the builder opens a read-only connection of its own. */
export interface ColumnBuildSource {
  readonly snapshotPath: string
  /** The default order's slots, which a sort order keeps ties in. */
  readonly tieOrder: Uint32Array
}

/**
 * Opens snapshots' search indexes and builds sort orders and column indexes away from the thread that answers
 * queries (the core worker in the app): at 100,000 employees each build takes 0.1–1 s, at 1,000,000 seconds,
 * and reading a stored index at 1,000,000 about 0.1–1 s; every IPC reply would wait meanwhile. Without one, the
 * query engine does all of it inline on first use (the CLI and tests).
 */
export interface ColumnBuilder {
  /**
   * A snapshot's search index (its stored one read, or one built from its rows for an older snapshot).
   * `checked`: the file as this thread's open checked it, so the builder need not check it again.
   */
  searchIndex(snapshotPath: string, checked?: CheckedFile): Promise<SearchIndex>
  sortOrder(source: ColumnBuildSource, build: ColumnBuild): Promise<SortOrder>
  columnIndex(source: ColumnBuildSource, build: ColumnBuild): Promise<TokenIndex>
  /** Every UUID of the snapshot in id order, for parts of them (uuid-parts.ts); null: read them row by row. */
  uuidParts(source: ColumnBuildSource): Promise<UuidPartsData | null>
}
