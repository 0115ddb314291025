/** What a StallMonitor saw between start and stop. */
export interface StallReport {
  /** The longest the thread went without running the probe, less the probe's own interval: its longest task. */
  readonly longestMs: number
  /** Gaps over 50 ms (the target for any task on the thread that answers IPC). */
  readonly over50ms: number
  readonly samples: number
}

/**
 * A drift probe on the thread it is started on: a timer due every `intervalMs` notes how late it ran, so the
 * longest gap is the longest task that held the thread (a sort, a JSON.parse of a page, a transaction). Used by
 * the main-thread bench; cheap enough (one timer) to leave running while measuring.
 */
export class StallMonitor {
  private timer: ReturnType<typeof setInterval> | null = null
  private last = 0
  private longest = 0
  private over = 0
  private samples = 0

  constructor(private readonly intervalMs = 2) {}

  start(): void {
    this.stop()
    this.longest = 0
    this.over = 0
    this.samples = 0
    this.last = performance.now()
    this.timer = setInterval(() => {
      const now = performance.now()
      const stall = now - this.last - this.intervalMs
      this.last = now
      this.samples++
      if (stall > this.longest) this.longest = stall
      if (stall > 50) this.over++
    }, this.intervalMs)
  }

  /** The report so far, measuring on. */
  peek(): StallReport {
    // A task running now has not let the probe in yet; count it up to this moment.
    const open = this.timer === null ? 0 : performance.now() - this.last - this.intervalMs
    return { longestMs: Math.max(this.longest, open, 0), over50ms: this.over, samples: this.samples }
  }

  stop(): StallReport {
    const report = this.peek()
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
    return report
  }
}
