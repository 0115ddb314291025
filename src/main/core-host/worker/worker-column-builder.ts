import type { ColumnBuild, ColumnBuilder, ColumnBuildSource } from '../../core/query/column-builds'
import { adoptRowGroups } from '../../core/query/match-rows'
import { SearchIndex } from '../../core/query/search-index'
import type { SortOrder } from '../../core/query/sort-order'
import { TokenIndex } from '../../core/query/token-index'
import type { UuidPartsData } from '../../core/query/uuid-parts'
import { RosterDeskError } from '../../core/errors'
import type { CoreJobs } from './core-jobs'
import type { WorkerHost } from './worker-host'
import { quotedColumnName } from '../../../shared/column-names'

/** The query engine's first-use builds, run by the core worker on its own read-only connection. */
export function workerColumnBuilder(host: WorkerHost<CoreJobs>): ColumnBuilder {
  const input = (source: ColumnBuildSource, build: ColumnBuild) => ({
    snapshotPath: source.snapshotPath,
    column: build.column,
    kind: build.kind,
  })
  return {
    searchIndex: async (snapshotPath, checked): Promise<SearchIndex> => {
      const opened = await host.run('search-index', {
        snapshotPath,
        ...(checked === undefined ? {} : { checked }),
      })
      const index = SearchIndex.fromParts(opened.index)
      if (index === null) {
        throw new RosterDeskError(
          'internal',
          'RosterDesk could not open the saved employees’ search index.',
          {
            detail: `the core worker's index of ${snapshotPath} does not describe one`,
          },
        )
      }
      // Groups that do not fit are simply not kept: the first query then makes them on this thread.
      adoptRowGroups(index, opened.rowGroups)
      return index
    },
    uuidParts: (source): Promise<UuidPartsData | null> =>
      host.run('uuid-parts', { snapshotPath: source.snapshotPath }),
    sortOrder: (source, build): Promise<SortOrder> =>
      host.run('sort-order', { ...input(source, build), tieOrder: source.tieOrder }),
    columnIndex: async (source, build): Promise<TokenIndex> => {
      const parts = await host.run('column-index', input(source, build))
      const index = TokenIndex.fromParts(parts, source.tieOrder.length, 'trusted')
      if (index === null) {
        throw new RosterDeskError('internal', 'RosterDesk could not prepare that search.', {
          detail: `the core worker's index of ${quotedColumnName(build.column)} does not describe one`,
        })
      }
      return index
    },
  }
}
