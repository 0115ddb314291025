import { HttpStatusError } from '../api/http-json'
import { PageTooLargeError, UnderfilledPageError } from '../api/list-client'
import type { ListEnvelope } from '../api/list-envelope'
import type { ListRequest } from '../api/list-request'
import type { SnapshotReader } from '../snapshot/snapshot-reader'
import type { PageSource } from './walk-types'

/**
 * How many rows a run asks for first when it looks for the largest page the service serves. The spec shows no
 * default or maximum (§8) and says the envelope's `limit` is the size used (§2), so the run asks for more than
 * any page it wants and reads the answer. At about 1 KB per row this page stays well inside the largest answer a
 * page may be (`maxPageMegabytes`).
 */
export const LARGE_PAGE_REQUEST = 5_000

/**
 * 'largest-served': page 1 of the main list asks for `LARGE_PAGE_REQUEST` (or the settings' page size if
 * larger) and the rest of the run uses the `limit` the service answers with; a refusal falls back to the
 * settings' page size, remembered for the next run. 'configured': every request asks for the settings' page size.
 */
export type PageSizing = 'largest-served' | 'configured'

/** What a run learned of the page sizes its source serves, kept in its snapshot's `snapshot_info`. */
export interface PageSizeMemory {
  /** The `limit` the main list was served at (`page_limit`). */
  readonly servedLimit?: number
  /**
   * A page size the service refused (HTTP 400, an answer over the page bound, or a page short of the limit it
   * confirms) (`refused_page_limit`).
   */
  readonly refusedLimit?: number
}

/** The page sizes a run starts with. */
export interface PageSizePlan {
  /** Asked for page 1 of the main list. */
  readonly firstRequest: number
  /** Pages 2..concurrency of the main list are guessed at this size alongside page 1 (list-walker.ts). */
  readonly guessSize: number
  /** The settings' page size: what a refused larger request falls back to. */
  readonly fallback: number
}

export function planPageSize(configured: number, sizing: PageSizing, memory: PageSizeMemory): PageSizePlan {
  if (sizing === 'configured')
    return { firstRequest: configured, guessSize: configured, fallback: configured }
  const large = Math.max(LARGE_PAGE_REQUEST, configured)
  // Asking again for a size the same service refused last time would only cost a refused request every run.
  const firstRequest = memory.refusedLimit !== undefined && large >= memory.refusedLimit ? configured : large
  // Last run's served size is a size the service serves, so guesses at it are usually kept; a first run has
  // only the size it asks for.
  const served = memory.servedLimit
  const guessSize = served !== undefined && served <= firstRequest ? served : firstRequest
  return { firstRequest, guessSize, fallback: configured }
}

/**
 * The previous run's page sizes, read from the snapshot of the same source (same-source.ts); none for another.
 * Kept in the snapshot rather than the profile because a CLI run on `--db` has no profile; so a failed run
 * remembers nothing, and a service that later serves larger pages is asked again only from a new source or cache.
 */
export function readPageSizeMemory(snapshot: SnapshotReader | null): PageSizeMemory {
  if (snapshot === null) return {}
  const servedLimit = positiveInteger(snapshot.info('page_limit'))
  const refusedLimit = positiveInteger(snapshot.info(REFUSED_KEY))
  return {
    ...(servedLimit === undefined ? {} : { servedLimit }),
    ...(refusedLimit === undefined ? {} : { refusedLimit }),
  }
}

const REFUSED_KEY = 'refused_page_limit'

/** The refusal as the next run reads it, for the run's `snapshot_info` (nothing when none is known). */
export function refusedPageInfo(refusedLimit: number | undefined): Record<string, string> {
  return refusedLimit === undefined ? {} : { [REFUSED_KEY]: String(refusedLimit) }
}

function positiveInteger(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9][0-9]{0,8}$/.test(text)) return undefined
  return Number(text)
}

/**
 * Every list request of a run goes through this: a request above the settings' page size that the service
 * refuses (`isPageSizeRefusal`) is sent again at the settings' page size, once, and so is every later one above
 * it. Page 1 is the run's first request, so a refused page 1 is the run started again at the settings' size; the
 * refusal is kept in the run's snapshot, and the next run of the same source asks at that size from the start.
 * The walker then sees a page served smaller than asked, which it already follows, so the completeness proof is
 * the same whichever size was served. A request at the settings' size that is refused fails the run as before:
 * that size is the clerk's to change.
 */
export class PageSizeNegotiation implements PageSource {
  private refused: number | undefined

  constructor(
    private readonly source: PageSource,
    private readonly fallback: number,
    /** A refusal remembered from the previous run, kept for the next one. */
    remembered: number | undefined,
  ) {
    this.refused = remembered
  }

  /** The smallest page size refused so far (this run or remembered), for the next run. */
  get refusedLimit(): number | undefined {
    return this.refused
  }

  async fetchPage(request: ListRequest, signal?: AbortSignal): Promise<ListEnvelope> {
    const limit = request.limit
    if (limit === undefined || limit <= this.fallback) return this.source.fetchPage(request, signal)
    if (this.refused !== undefined && limit >= this.refused) {
      return this.source.fetchPage({ ...request, limit: this.fallback }, signal)
    }
    try {
      return await this.source.fetchPage(request, signal)
    } catch (error) {
      if (!isPageSizeRefusal(error)) throw error
      this.refused = Math.min(this.refused ?? limit, limit)
      return this.source.fetchPage({ ...request, limit: this.fallback }, signal)
    }
  }
}

/**
 * What a service answers a page size it will not serve with: HTTP 400, an answer over the page bound, or a page
 * that confirms the size asked for and holds fewer rows than it (`UnderfilledPageError`: a service that echoes
 * `limit` instead of saying the size it served).
 */
function isPageSizeRefusal(error: unknown): boolean {
  return (
    (error instanceof HttpStatusError && error.status === 400) ||
    error instanceof PageTooLargeError ||
    error instanceof UnderfilledPageError
  )
}
