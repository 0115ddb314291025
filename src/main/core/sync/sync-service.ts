import type { SyncProgress, SyncRunSummary, SyncStatus } from '../../../shared/domain'
import { RosterDeskError } from '../errors'
import { runSync } from './sync-engine'
import type { SyncDependencies, SyncRunOptions } from './sync-engine'

/** What a caller chooses per run; the service adds cancellation and progress. */
export type SyncStartOptions = Omit<SyncRunOptions, 'signal' | 'onProgress' | 'onStart'>

type Listener<T> = (value: T) => void

/**
 * The sync as the app sees it: one run at a time, cancellable, observable. The IPC handlers and the Electron
 * wiring call this; it never throws for a run that started (the summary says how it ended).
 */
export class SyncService {
  private controller: AbortController | null = null
  private running: Promise<SyncRunSummary> | null = null
  private progress: SyncProgress | undefined
  private readonly progressListeners = new Set<Listener<SyncProgress>>()
  private readonly finishedListeners = new Set<Listener<SyncRunSummary>>()

  constructor(private readonly deps: SyncDependencies) {}

  /**
   * Starts a run and resolves with its summary when it ends, complete, failed or cancelled. Rejects with
   * RosterDeskError('busy') while another run is going, and for options that cannot work (bad page size).
   */
  start(options: SyncStartOptions): Promise<SyncRunSummary> {
    if (this.running !== null) {
      return Promise.reject(new RosterDeskError('busy', 'A sync is already running. Wait for it to finish.'))
    }
    const controller = new AbortController()
    this.controller = controller
    this.progress = undefined
    const run = runSync(this.deps, {
      ...options,
      signal: controller.signal,
      onProgress: (progress) => {
        this.progress = progress
        notify(this.progressListeners, progress)
      },
    }).then((summary) => {
      notify(this.finishedListeners, summary)
      return summary
    })
    const settled = run.finally(() => {
      if (this.running === settled) {
        this.running = null
        this.controller = null
        this.progress = undefined
      }
    })
    this.running = settled
    return settled
  }

  /** Asks the running sync to stop; true when there was one. The run still resolves, as 'cancelled'. */
  cancel(): boolean {
    if (this.controller === null || this.controller.signal.aborted) return false
    this.controller.abort()
    return true
  }

  get isRunning(): boolean {
    return this.running !== null
  }

  /** Resolves once no run is going (at once when none is): closing the cache before that would break the run. */
  async idle(): Promise<void> {
    await this.running?.then(
      () => undefined,
      () => undefined,
    )
  }

  getStatus(): SyncStatus {
    const cache = this.deps.cache
    const lastRun = cache.lastRun()
    const lastComplete = cache.lastCompleteRun()
    return {
      running: this.running !== null,
      ...(this.progress === undefined ? {} : { progress: this.progress }),
      ...(lastRun === undefined ? {} : { lastRun }),
      ...(lastComplete === undefined ? {} : { lastComplete }),
      employeeCount: cache.employeeCount(),
    }
  }

  /** Progress of the running sync, a few times a second. Returns the unsubscribe function. */
  onProgress(listener: Listener<SyncProgress>): () => void {
    this.progressListeners.add(listener)
    return () => this.progressListeners.delete(listener)
  }

  /** Every run's summary when it ends. Returns the unsubscribe function. */
  onFinished(listener: Listener<SyncRunSummary>): () => void {
    this.finishedListeners.add(listener)
    return () => this.finishedListeners.delete(listener)
  }
}

/** A listener's failure (a closed window, say) must never break the sync that reports to it. */
function notify<T>(listeners: ReadonlySet<Listener<T>>, value: T): void {
  for (const listener of listeners) {
    try {
      listener(value)
    } catch {
      // Reported nowhere on purpose: progress is advisory, the run's summary is what counts.
    }
  }
}
