import type { SyncProgress, SyncRunSummary, SyncStatus } from '../../../shared/domain/sync'
import type { RowSource } from '../../../shared/source-identity'
import type { RunSettings } from '../cache/run-log'
import { RosterDeskError } from '../errors'
import { runSync } from './sync-engine'
import type { SyncDependencies, SyncRunOptions } from './sync-engine'

/** What a caller chooses per run; the service adds cancellation and progress. */
export type SyncStartOptions = Omit<SyncRunOptions, 'signal' | 'onProgress' | 'onStart'>

/**
 * Runs one sync as `runSync` does (resolves with the summary whatever the outcome once the run is logged; rejects
 * only when it cannot start): `runSync` itself on this thread, or the core worker's run (workers/worker-sync.ts).
 */
export type SyncRunner = (options: SyncRunOptions) => Promise<SyncRunSummary>

type Listener<T> = (value: T) => void

/** A run that has been logged and is under way. */
export interface StartedSync {
  readonly runId: number
  /** Its summary when it ends, whatever the outcome; never rejects. */
  readonly finished: Promise<SyncRunSummary>
}

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

  private readonly runner: SyncRunner

  /** `runner` runs each sync elsewhere (the app's core worker); by default `runSync` on this thread. */
  constructor(
    private readonly deps: SyncDependencies,
    runner?: SyncRunner,
  ) {
    this.runner = runner ?? ((options) => runSync(deps, options))
  }

  /**
   * Starts a run and resolves as soon as the run is logged, before any request, with its id and a promise of
   * its summary (which never rejects: complete, failed and cancelled runs all resolve). Every summary also goes
   * to `onFinished`. Rejects with RosterDeskError('busy') while another run is going, and for options that
   * cannot work (bad page size).
   */
  async begin(options: SyncStartOptions): Promise<StartedSync> {
    if (this.running !== null) {
      throw new RosterDeskError('busy', 'A sync is already running. Wait for it to finish.')
    }
    const controller = new AbortController()
    this.controller = controller
    this.progress = undefined
    let logged: (runId: number) => void = () => undefined
    const runId = new Promise<number>((resolve) => (logged = resolve))
    const run = this.runner({
      ...options,
      signal: controller.signal,
      onStart: (id) => logged(id),
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
    // A run that cannot start rejects before it is logged, and that rejection is this call's answer.
    const id = await Promise.race([runId, settled.then((summary) => summary.id)])
    return { runId: id, finished: settled }
  }

  /** `begin`, then the run's summary when it ends: for callers that wait for the outcome (the CLI, tests). */
  async start(options: SyncStartOptions): Promise<SyncRunSummary> {
    return (await this.begin(options)).finished
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
    const lastRun = cache.runs.lastRun()
    const lastComplete = cache.lastCompleteRun()
    return {
      running: this.running !== null,
      ...(this.progress === undefined ? {} : { progress: this.progress }),
      ...(lastRun === undefined ? {} : { lastRun }),
      ...(lastComplete === undefined ? {} : { lastComplete }),
      ...(lastComplete === undefined
        ? {}
        : { source: sourceOfRun(cache.runs.log.settingsOf(lastComplete.id)) }),
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

/** A run's recorded settings as the source of the rows it left (what the run log did not record stays absent). */
export function sourceOfRun(settings: RunSettings | undefined): RowSource {
  if (settings === undefined) return {}
  return {
    ...(settings.environment === undefined ? {} : { environment: settings.environment }),
    ...(settings.baseUrl === undefined ? {} : { serviceAddress: settings.baseUrl }),
    ...(settings.tenantId === undefined ? {} : { tenantId: settings.tenantId }),
  }
}
