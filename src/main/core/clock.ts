/** Time as a dependency, so tests control expiry and backoff without sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Resolves after `ms`, or rejects with the signal's reason when aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason)
        return
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, ms)
      const onAbort = (): void => {
        clearTimeout(timer)
        reject(signal?.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
}

/** Timers as a dependency, so a schedule is tested by moving fake time instead of waiting. */
export interface Timers {
  /** Calls `callback` once after `ms`; the function returned cancels it if it has not run yet. */
  after(ms: number, callback: () => void): () => void
}

export const systemTimers: Timers = {
  after(ms, callback) {
    const timer = setTimeout(callback, ms)
    // A waiting schedule is no reason to keep a process alive: the app quits through close(), tests just end.
    timer.unref()
    return () => clearTimeout(timer)
  },
}
