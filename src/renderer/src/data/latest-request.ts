/** How a request ended, as `settle` is told. */
export type RequestOutcome<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown }

interface Waiting<T> {
  readonly seq: number
  readonly start: () => Promise<T>
  readonly settle: (outcome: RequestOutcome<T>) => void
}

/**
 * Two lanes: a query waiting on a first-use build on the core worker (a first sort or "Search in", seconds at a
 * million employees) holds one, and the clerk's next keystrokes are answered in the other meanwhile.
 */
const LANES = 2

/**
 * Sends requests of which only the latest matters (each keystroke's or filter change's query): at once while fewer
 * than LANES are in flight, else the newest waits in the one pending place (an older one waiting there is dropped,
 * never sent) and goes when a lane frees; so however fast the clerk types, the core is asked at most LANES queries
 * plus the newest, never a backlog of stale ones. Each request has a sequence number, and an answer is settled only
 * when its request is still the newest asked: an answer to a superseded request is never settled, whatever order
 * the answers come back in, so a stale answer is never painted over a newer one.
 */
export class LatestRequest<T> {
  #latest = 0
  #inFlight = 0
  #pending: Waiting<T> | undefined

  /** Asks `start`, now or when a lane frees; `settle` hears its outcome if it is still the newest then. */
  run(start: () => Promise<T>, settle: (outcome: RequestOutcome<T>) => void): void {
    const waiting: Waiting<T> = { seq: ++this.#latest, start, settle }
    if (this.#inFlight < LANES) this.#send(waiting)
    else this.#pending = waiting
  }

  /** Nothing asked so far is settled any more, and nothing waiting is sent (the owner has gone, or asks anew). */
  cancel(): void {
    this.#latest++
    this.#pending = undefined
  }

  #send(request: Waiting<T>): void {
    this.#inFlight++
    let answer: Promise<T>
    try {
      answer = request.start()
    } catch (error) {
      answer = Promise.reject(error)
    }
    answer
      .then(
        (value): RequestOutcome<T> => ({ ok: true, value }),
        (error: unknown): RequestOutcome<T> => ({ ok: false, error }),
      )
      .then((outcome) => {
        this.#inFlight--
        // A request waiting is newer than this one, whose answer is then dropped; it goes first either way.
        const next = this.#pending
        this.#pending = undefined
        if (next !== undefined) this.#send(next)
        if (request.seq === this.#latest) request.settle(outcome)
      })
  }
}
