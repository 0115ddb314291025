import type { EmployeeRow } from '../../../shared/domain/rows'
import type { ListEnvelope, NumbersAsText } from '../api/list-envelope'
import type { ListRequest } from '../api/list-request'

/**
 * What a walk of one list (walkList, list-walker.ts) reads from and is told: its page source and options, and the
 * pages and passes it reports. Here, apart from the walker, so that page-pipeline.ts, which the walker moves its
 * pages through, sits below it: list-walker.ts imports page-pipeline.ts, never the other way.
 */

export interface PageSource {
  fetchPage(request: ListRequest, signal?: AbortSignal): Promise<ListEnvelope>
}

/** One page as it arrived, for staging. `position` is the list position of rows[0] (0-based). */
export interface ArrivedPage {
  readonly pass: number
  readonly page: number
  readonly position: number
  readonly rows: readonly EmployeeRow[]
  /** Its numbers beyond a double's range, kept as their text; absent when none was. */
  readonly numbersAsText?: NumbersAsText
}

export interface PassStart {
  readonly pass: number
  readonly pages: number
  readonly totalCount: number
  readonly limit: number
}

export interface WalkOptions {
  /** The page size to ask for page 1; the service may serve fewer, and the envelope's `limit` then rules. */
  readonly pageSize: number
  /**
   * The page size pages 2..concurrency are asked for alongside page 1 (default `pageSize`). Such a guess is used
   * only if page 1 is served at exactly this size, so its rows sit where the request put them whatever the
   * service does with a size it will not serve.
   */
  readonly guessSize?: number
  readonly concurrency: number
  /** Full passes before giving up on a list that keeps moving. */
  readonly maxPasses: number
  readonly payCycleId?: string
  /**
   * `statusFilter` on every request of the list (a sync scoped to active employees). The walker's proof (walkList)
   * holds for the filtered set as it does for the whole list: the envelope's totalCount counts the matching records
   * (§2).
   */
  readonly statusFilter?: string
  /**
   * The most employees a list may claim (setting `maxEmployees`): a `totalCount` above it ends the run at page 1,
   * before anything is sized or fetched by it. Unlimited when absent.
   */
  readonly maxTotalCount?: number
  readonly signal?: AbortSignal
  readonly onPassStart?: (start: PassStart) => void
  /**
   * Called for each page in the order pages arrived, just after its lane has sent its next request (the snapshot
   * builder writes it at once).
   */
  readonly onPage: (page: ArrivedPage) => void
  /**
   * No page is handed to `onPage` before this resolves: what staging needs (the previous snapshot's fingerprints)
   * loads while the first requests are out, and arrived pages wait for it. Its rejection fails the walk.
   */
  readonly stagingReady?: Promise<void>
  /**
   * Called once per pass when every page of it is staged, while the second look at page 1 may still be in
   * flight: a moment of idle network the caller can spend preparing its commit. Throwing fails the pass.
   */
  readonly onPagesIn?: (pass: number) => void
}
