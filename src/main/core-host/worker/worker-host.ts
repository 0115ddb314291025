import { Worker } from 'node:worker_threads'
import { cancelledError, RosterDeskError } from '../../core/errors'
import { silentLogger, type Logger } from '../../core/log/logger'
import type { CallMap, JobMap, ToWorker } from './worker-protocol'
import { fromWorkerError, isFromWorker, toWorkerError } from './worker-protocol'

/** The file a worker runs, and the Node options it needs (the tsx loader when it is TypeScript source). */
export interface WorkerEntry {
  readonly file: string
  readonly execArgv: readonly string[]
  /** The thread's `workerData` (the core worker's: its cache key, worker-cache-key.ts); absent: none. */
  readonly workerData?: unknown
}

/**
 * How a host reaches what runs its jobs: a worker thread (`threadChannel`), or a process of its own (Electron's
 * utilityProcess in the app, a forked Node process in tests and benchmarks: shell/core-process/core-process-channel.ts).
 */
export interface JobChannel {
  /** `transfer` lists buffers to move rather than copy; a channel that cannot move them copies them. */
  postMessage(message: ToWorker, transfer: readonly ArrayBuffer[]): void
  onMessage(listener: (message: unknown) => void): void
  /** A failure of the thread or process itself (an uncaught error), not of a job. */
  onError(listener: (error: Error) => void): void
  onExit(listener: (code: number) => void): void
  /** Whether it keeps this process alive (an idle thread must not); a no-op where that does not apply. */
  ref(): void
  unref(): void
  terminate(): Promise<void>
}

/** Starts a fresh channel: on the first job, and again after a crash or an idle stop. */
export interface JobChannelStarter {
  start(name: string, logger: Logger): JobChannel
}

/** A worker thread running `entry`, as a channel. */
export function threadChannel(entry: WorkerEntry): JobChannelStarter {
  return {
    start(name, logger) {
      const worker = new Worker(entry.file, {
        execArgv: [...entry.execArgv],
        name,
        ...(entry.workerData === undefined ? {} : { workerData: entry.workerData }),
      })
      worker.on('messageerror', (error: Error) => {
        logger.error(`The ${name} sent a message that could not be read`, error)
      })
      return {
        postMessage: (message, transfer) => worker.postMessage(message, [...transfer]),
        onMessage: (listener) => void worker.on('message', listener),
        onError: (listener) => void worker.on('error', listener),
        onExit: (listener) => void worker.on('exit', listener),
        ref: () => worker.ref(),
        unref: () => worker.unref(),
        terminate: async () => void (await worker.terminate()),
      }
    },
  }
}

export interface WorkerHostOptions {
  /** Names the worker in logs and errors ("core worker"). */
  readonly name: string
  readonly logger?: Logger
  /** How long a cancelled job may take to stop before the worker is ended (and started afresh for the next). */
  readonly cancelGraceMs?: number
  /**
   * How long the worker may sit without a job before it is ended, giving its memory back (a build's heap and the
   * native memory of its thread); the next job starts it afresh. Absent: it stays until `stop`.
   */
  readonly idleStopMs?: number
}

/** A call's answer, and the buffers in it to move rather than copy. */
export interface CallAnswer<Result> {
  readonly value: Result
  readonly transfer?: readonly ArrayBuffer[]
}

/** How the host answers each call a job may make; `signal` aborts when the job withdraws the call or ends. */
export type CallHandlers<Calls extends CallMap> = {
  readonly [N in keyof Calls]: (
    arg: Calls[N]['arg'],
    signal: AbortSignal,
  ) => Promise<CallAnswer<Calls[N]['result']>>
}

export interface RunOptions<Progress, Calls extends CallMap = Record<never, never>> {
  readonly signal?: AbortSignal
  readonly onProgress?: (value: Progress) => void
  /** Buffers of the input to move to the worker rather than copy. */
  readonly transfer?: readonly ArrayBuffer[]
  /** Answers the job's calls (required when its spec declares any). */
  readonly calls?: CallHandlers<Calls>
  /** Overrides the host's cancel grace for this job (a sync winding down may take longer than a build). */
  readonly cancelGraceMs?: number
}

interface PendingJob {
  readonly resolve: (output: unknown) => void
  readonly reject: (error: RosterDeskError) => void
  readonly onProgress: ((value: unknown) => void) | undefined
  readonly calls: Readonly<
    Record<string, (arg: unknown, signal: AbortSignal) => Promise<CallAnswer<unknown>>>
  >
  /** Calls being answered, by number: aborted when withdrawn or when the job ends. */
  readonly answering: Map<number, AbortController>
  readonly cancelGraceMs: number
  cancelTimer: ReturnType<typeof setTimeout> | undefined
}

const DEFAULT_CANCEL_GRACE_MS = 5_000

/**
 * One worker thread and the jobs it runs for this thread, typed end to end by `Jobs`: `run` resolves with the
 * job's output or rejects with a RosterDeskError (the worker's own, rebuilt; 'cancelled' after a cancel; 'internal'
 * when the worker crashed or exited, which never takes this thread with it). The worker starts on the first job,
 * is started again after a crash, never keeps the process alive while idle, and with `idleStopMs` ends after that
 * long without a job (or a `hold`).
 */
export class WorkerHost<Jobs extends JobMap> {
  private worker: JobChannel | null = null
  private idleTimer: ReturnType<typeof setTimeout> | undefined
  /** Holds taken with `hold()` and not yet released: while any is, an idle worker is not ended. */
  private holds = 0
  private nextId = 1
  private readonly pending = new Map<number, PendingJob>()
  private readonly logger: Logger
  private readonly cancelGraceMs: number
  private readonly starter: JobChannelStarter

  /** `entry`: a worker thread's file, or a starter of any other channel (a process of its own). */
  constructor(
    entry: WorkerEntry | JobChannelStarter,
    private readonly options: WorkerHostOptions,
  ) {
    this.logger = options.logger ?? silentLogger
    this.cancelGraceMs = options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS
    this.starter = 'start' in entry ? entry : threadChannel(entry)
  }

  /** Whether a worker thread is up (started by a job, not yet ended by a crash, an idle stop or `stop`). */
  get isRunning(): boolean {
    return this.worker !== null
  }

  /** Jobs sent and not yet answered. */
  get activeJobs(): number {
    return this.pending.size
  }

  run<K extends keyof Jobs & string>(
    job: K,
    input: Jobs[K]['input'],
    options: RunOptions<Jobs[K]['progress'], Jobs[K]['calls']> = {},
  ): Promise<Jobs[K]['output']> {
    const { signal } = options
    if (signal?.aborted === true) return Promise.reject(cancelledError())
    this.clearIdleTimer()
    const worker = this.ensureWorker()
    const id = this.nextId++
    return new Promise<Jobs[K]['output']>((resolve, reject) => {
      const onAbort = () => this.cancel(id)
      const settle = () => signal?.removeEventListener('abort', onAbort)
      this.pending.set(id, {
        resolve: (output) => {
          settle()
          resolve(output as Jobs[K]['output'])
        },
        reject: (error) => {
          settle()
          reject(error)
        },
        onProgress: options.onProgress as ((value: unknown) => void) | undefined,
        calls: (options.calls ?? {}) as PendingJob['calls'],
        answering: new Map(),
        cancelGraceMs: options.cancelGraceMs ?? this.cancelGraceMs,
        cancelTimer: undefined,
      })
      signal?.addEventListener('abort', onAbort, { once: true })
      worker.ref()
      try {
        this.post(worker, { type: 'run', id, job, input }, options.transfer ?? [])
      } catch (error) {
        // An input that cannot be cloned (a function, say) is the caller's bug, reported as this job's failure.
        this.settle(id, (job) =>
          job.reject(
            new RosterDeskError('internal', 'RosterDesk could not hand work to its background task.', {
              detail: error instanceof Error ? error.message : String(error),
              cause: error,
            }),
          ),
        )
      }
    })
  }

  /**
   * Keeps the worker (and what it loaded) from ending for idleness until the returned function is called, as
   * while an export's save dialog is open after exceljs was loaded for it. Starts nothing by itself.
   */
  hold(): () => void {
    this.holds++
    this.clearIdleTimer()
    let released = false
    return () => {
      if (released) return
      released = true
      this.holds--
      if (this.pending.size === 0) this.idle()
    }
  }

  /** Ends the worker; jobs still running reject with `reason` (by default as cancelled). */
  async stop(reason: RosterDeskError = cancelledError()): Promise<void> {
    this.clearIdleTimer()
    const worker = this.worker
    this.worker = null
    this.failAll(reason)
    if (worker !== null) await worker.terminate()
  }

  private ensureWorker(): JobChannel {
    if (this.worker !== null) return this.worker
    const worker = this.starter.start(this.options.name, this.logger)
    worker.onMessage((message: unknown) => this.receive(message))
    worker.onError((error: Error) => {
      this.logger.error(`The ${this.options.name} failed`, error)
      this.crashed(worker, error.stack ?? error.message)
    })
    worker.onExit((code) => {
      if (this.worker === worker && code !== 0)
        this.logger.warn(`The ${this.options.name} exited with code ${code}`)
      this.crashed(worker, `exited with code ${code}`)
    })
    worker.unref()
    this.worker = worker
    return worker
  }

  private receive(message: unknown): void {
    if (!isFromWorker(message)) return
    if (message.type === 'log') {
      // Formatted and redacted by the worker (forwardingLogger); this Logger redacts again as it writes.
      this.logger[message.level](`${this.options.name}: ${message.text}`)
      return
    }
    if (message.type === 'call') {
      this.answer(message.id, message.call, message.name, message.arg)
      return
    }
    if (message.type === 'call-cancel') {
      this.pending.get(message.id)?.answering.get(message.call)?.abort()
      return
    }
    if (message.type === 'progress') {
      const job = this.pending.get(message.id)
      try {
        job?.onProgress?.(message.value)
      } catch (error) {
        // A listener's failure (a closed window, say) must not end the job that reports to it.
        this.logger.warn(`A progress listener of the ${this.options.name} failed`, error)
      }
      return
    }
    this.settle(message.id, (job) =>
      message.type === 'done' ? job.resolve(message.output) : job.reject(fromWorkerError(message.error)),
    )
  }

  /** Runs the job's handler for one call and replies with its answer or its error, unless withdrawn meanwhile. */
  private answer(id: number, call: number, name: string, arg: unknown): void {
    const job = this.pending.get(id)
    const worker = this.worker
    if (job === undefined || worker === null) return
    const controller = new AbortController()
    job.answering.set(call, controller)
    const handler = Object.hasOwn(job.calls, name) ? job.calls[name] : undefined
    void (async () => {
      try {
        if (handler === undefined) throw new Error(`The ${this.options.name}'s job may not call ${name}`)
        const answer = await handler(arg, controller.signal)
        if (controller.signal.aborted || this.worker !== worker) return
        this.post(worker, { type: 'reply', id, call, value: answer.value }, answer.transfer ?? [])
      } catch (error) {
        if (controller.signal.aborted || this.worker !== worker) return
        this.post(worker, { type: 'reply', id, call, error: toWorkerError(error) })
      } finally {
        job.answering.delete(call)
      }
    })()
  }

  private cancel(id: number): void {
    const job = this.pending.get(id)
    const worker = this.worker
    if (job === undefined || worker === null || job.cancelTimer !== undefined) return
    this.post(worker, { type: 'cancel', id })
    // Work that never looks at its signal (one long native sort) is stopped by ending the worker.
    job.cancelTimer = setTimeout(() => {
      if (!this.pending.has(id) || this.worker !== worker) return
      this.logger.warn(`The ${this.options.name} did not stop a cancelled job; ending it`)
      this.settle(id, (pending) => pending.reject(cancelledError()))
      this.worker = null
      this.failAll(
        new RosterDeskError('internal', `RosterDesk restarted a background task; try again.`, {
          detail: `${this.options.name} ended to stop a cancelled job`,
        }),
      )
      void worker.terminate()
    }, job.cancelGraceMs)
    job.cancelTimer.unref()
  }

  private settle(id: number, finish: (job: PendingJob) => void): void {
    const job = this.pending.get(id)
    if (job === undefined) return
    this.pending.delete(id)
    if (job.cancelTimer !== undefined) clearTimeout(job.cancelTimer)
    for (const answering of job.answering.values()) answering.abort()
    if (this.pending.size === 0) this.idle()
    finish(job)
  }

  /** The last job settled: the worker no longer keeps the process alive, and ends if no job comes in time. */
  private idle(): void {
    const worker = this.worker
    if (worker === null) return
    worker.unref()
    const idleStopMs = this.options.idleStopMs
    if (idleStopMs === undefined || this.holds > 0) return
    this.clearIdleTimer()
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined
      if (this.worker !== worker || this.pending.size > 0 || this.holds > 0) return
      this.worker = null
      void worker.terminate()
    }, idleStopMs)
    this.idleTimer.unref()
  }

  private clearIdleTimer(): void {
    if (this.idleTimer === undefined) return
    clearTimeout(this.idleTimer)
    this.idleTimer = undefined
  }

  private crashed(worker: JobChannel, detail: string): void {
    if (this.worker !== worker) return
    this.worker = null
    this.failAll(
      new RosterDeskError(
        'internal',
        'A background task of RosterDesk stopped unexpectedly. Try again; if it keeps happening, send the log to support.',
        { detail: `${this.options.name}: ${detail}` },
      ),
    )
  }

  private failAll(error: RosterDeskError): void {
    for (const id of [...this.pending.keys()]) this.settle(id, (job) => job.reject(error))
  }

  private post(worker: JobChannel, message: ToWorker, transfer: readonly ArrayBuffer[] = []): void {
    worker.postMessage(message, transfer)
  }
}
