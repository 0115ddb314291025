import type { Clock } from '../../src/main/core/clock'

interface Timer {
  at: number
  resolve: () => void
}

/** A Clock that moves only when told: `advance` fires due sleeps in order, `set` moves time without firing any. */
export class FakeClock implements Clock {
  #now: number
  #timers: Timer[] = []

  constructor(start = Date.UTC(2026, 10, 1, 9, 0, 0)) {
    this.#now = start
  }

  now(): number {
    return this.#now
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason)
        return
      }
      const timer: Timer = {
        at: this.#now + ms,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
      }
      const onAbort = (): void => {
        this.#timers = this.#timers.filter((t) => t !== timer)
        reject(signal?.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.#timers.push(timer)
    })
  }

  /** Moves time forward and resolves every sleep that has come due, then lets their continuations run. */
  async advance(ms: number): Promise<void> {
    this.#now += ms
    const due = this.#timers.filter((t) => t.at <= this.#now).sort((a, b) => a.at - b.at)
    this.#timers = this.#timers.filter((t) => t.at > this.#now)
    for (const timer of due) timer.resolve()
    await new Promise((resolve) => setImmediate(resolve))
  }

  /** Moves time without firing sleeps, as when a machine wakes up before its timers have run. */
  set(now: number): void {
    this.#now = now
  }

  /** Sleeps still waiting. */
  get pendingSleeps(): number {
    return this.#timers.length
  }
}
