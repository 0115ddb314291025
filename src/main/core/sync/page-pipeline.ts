import type { ListEnvelope } from '../api/list-envelope'
import type { ListRequest } from '../api/list-request'
import type { PageSource, WalkOptions } from './walk-types'

/** How pages move between the network and the snapshot within one pass of the list walker. */

/**
 * Stages pages just after their request's lane has sent the next request, rather than before: writing a page
 * takes milliseconds of the one JavaScript thread, and doing it first would add that to every request's round
 * trip. A staging failure (disk full) aborts the pass through `onFailure` and is what the pass then throws.
 *
 * `ready`: nothing is staged before it resolves (what staging needs is still loading while the first requests
 * are out); pages wait in arrival order meanwhile. Its rejection is a staging failure, reported as soon as it
 * happens. A pass that ends without them (failed, cancelled) `abandon`s the pages still waiting.
 */
export class DeferredDeliveries {
  private readonly pending: Array<() => void> = []
  private scheduled = false
  private failed = false
  private abandoned = false
  private failure: unknown
  private readonly idle: Array<() => void> = []
  /** Resolves true when staging may start, false when it never will. */
  private readonly ready: Promise<boolean>

  constructor(
    private readonly onFailure: (error: unknown) => void,
    ready: Promise<void> = Promise.resolve(),
  ) {
    this.ready = ready.then(
      () => true,
      (error: unknown) => {
        this.fail(error)
        return false
      },
    )
  }

  add(work: () => void): void {
    if (this.abandoned) return
    this.pending.push(work)
    if (!this.scheduled) {
      this.scheduled = true
      void this.ready.then((go) => {
        if (go) setImmediate(() => this.drain())
        else this.drain()
      })
    }
  }

  throwIfFailed(): void {
    if (this.failed) throw this.failure
  }

  /** Resolves once every added page is staged; throws the staging failure, if any. */
  async flush(): Promise<void> {
    if (this.scheduled) await new Promise<void>((resolve) => this.idle.push(resolve))
    this.throwIfFailed()
  }

  /** The pass has ended: pages still waiting are never staged (the run's files may be gone by then). */
  abandon(): void {
    this.abandoned = true
    this.pending.length = 0
  }

  private drain(): void {
    while (this.pending.length > 0) {
      const work = this.pending.shift() as () => void
      if (this.failed || this.abandoned) continue
      try {
        work()
      } catch (error) {
        this.fail(error)
      }
    }
    this.scheduled = false
    for (const resolve of this.idle.splice(0)) resolve()
  }

  private fail(error: unknown): void {
    if (this.failed) return
    this.failed = true
    this.failure = error
    this.onFailure(error)
  }
}

/**
 * Pages 2..concurrency asked for at the same time as page 1, at the guess size, so the first round of a sync is
 * not spent waiting for page 1 alone. They are used if page 1 shows the service served that size.
 */
export class Speculation {
  private readonly pages = new Map<number, { promise: Promise<ListEnvelope>; control: AbortController }>()

  add(
    page: number,
    start: (signal: AbortSignal) => Promise<ListEnvelope>,
    outer: AbortSignal | undefined,
  ): void {
    const control = new AbortController()
    if (outer?.aborted) control.abort()
    else outer?.addEventListener('abort', () => control.abort(), { once: true })
    const promise = start(control.signal)
    // Failures surface when (and only if) the page is taken; a discarded guess must not become unhandled.
    promise.catch(() => undefined)
    this.pages.set(page, { promise, control })
  }

  /** Keeps guesses for pages up to `lastPage` and cancels the rest. */
  keep(lastPage: number): void {
    for (const [page, guess] of this.pages) {
      if (page > lastPage) {
        guess.control.abort()
        this.pages.delete(page)
      }
    }
  }

  /** The guessed page, if there is one; undefined means "fetch it". */
  async take(page: number, signal: AbortSignal): Promise<ListEnvelope | undefined> {
    const guess = this.pages.get(page)
    if (guess === undefined) return undefined
    this.pages.delete(page)
    const onAbort = (): void => guess.control.abort()
    signal.addEventListener('abort', onAbort, { once: true })
    try {
      return await guess.promise
    } finally {
      signal.removeEventListener('abort', onAbort)
    }
  }

  abandon(): void {
    this.keep(0)
  }
}

/** Starts the guesses for pages 2..concurrency of a list, at the guess size (by default the requested size). */
export function startSpeculation(source: PageSource, options: WalkOptions): Speculation {
  const speculation = new Speculation()
  const limit = options.guessSize ?? options.pageSize
  for (let page = 2; page <= options.concurrency; page++) {
    speculation.add(
      page,
      (signal) => fetchOrCancel(source, { page, limit }, { ...options, signal }),
      options.signal,
    )
  }
  return speculation
}

/** One page request, with the list's filters. */
export async function fetchOrCancel(
  source: PageSource,
  request: { readonly page: number; readonly limit: number },
  options: Pick<WalkOptions, 'payCycleId' | 'statusFilter' | 'signal'>,
): Promise<ListEnvelope> {
  const withFilters: ListRequest = {
    ...request,
    ...(options.statusFilter === undefined ? {} : { statusFilter: options.statusFilter }),
    ...(options.payCycleId === undefined ? {} : { payCycleId: options.payCycleId }),
  }
  return source.fetchPage(withFilters, options.signal)
}
