import { parentPort } from 'node:worker_threads'
import { cancelledError } from '../../core/errors'
import { createLogger } from '../../core/log/logger'
import type { Logger } from '../../core/log/logger'
import type { CallMap, FromWorker, JobMap } from './worker-protocol'
import { fromWorkerError, isToWorker, toWorkerError } from './worker-protocol'

/**
 * The serving side's end of a JobChannel: a worker thread's `parentPort`, or a process's link to its parent
 * (core-host/process/process-channel.ts).
 */
export interface JobPort {
  on(event: 'message', listener: (message: unknown) => void): unknown
  postMessage(message: FromWorker, transfer?: ArrayBuffer[]): void
}

/** What a job handler gets besides its input. */
export interface JobContext<Progress, Calls extends CallMap = Record<never, never>> {
  /**
   * Asks the host (its `calls` handler of that name) and waits for the answer; `signal` withdraws the request.
   * Rejects with the host's error, rebuilt.
   */
  call<N extends keyof Calls & string>(
    name: N,
    arg: Calls[N]['arg'],
    signal?: AbortSignal,
  ): Promise<Calls[N]['result']>
  /** Aborted when the host cancels this job; a handler checks it between steps of its work. */
  readonly signal: AbortSignal
  progress(value: Progress): void
  /** Buffers of the output to move to the host rather than copy (typed arrays of a built index). */
  transfer(...buffers: ArrayBufferLike[]): void
  /** Writes to the host's log (forwardingLogger): a worker has no log of its own. */
  readonly logger: Logger
}

/**
 * A Logger whose entries go to the host's Logger (worker-host.ts writes them). Each entry is formatted and redacted
 * here, as createLogger does everywhere, because an error object does not survive the crossing whole (its class,
 * detail and cause are lost); the host redacts the text again on its way to the file.
 */
export function forwardingLogger(port: JobPort | null = parentPort): Logger {
  if (port === null) throw new Error('forwardingLogger runs only inside a worker thread')
  const channel = port
  return createLogger((level, text) => {
    const message: FromWorker = { type: 'log', level, text }
    channel.postMessage(message)
  })
}

export type JobHandlers<Jobs extends JobMap> = {
  readonly [K in keyof Jobs]: (
    input: Jobs[K]['input'],
    context: JobContext<Jobs[K]['progress'], Jobs[K]['calls']>,
  ) => Promise<Jobs[K]['output']> | Jobs[K]['output']
}

/**
 * The worker's side of worker-host.ts: runs each job it is sent with its handler, several at once when they
 * await, and answers with the output, progress or a typed error. Call once from a worker entry file.
 */
export function serveJobs<Jobs extends JobMap>(
  handlers: JobHandlers<Jobs>,
  port: JobPort | null = parentPort,
): void {
  if (port === null) throw new Error('serveJobs runs only inside a worker thread')
  const channel = port
  const logger = forwardingLogger(channel)
  const running = new Map<number, AbortController>()
  const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>()
  let nextCall = 1
  const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => channel.postMessage(message, transfer)
  const call = (id: number, name: string, arg: unknown, signal?: AbortSignal): Promise<unknown> => {
    if (signal?.aborted === true) return Promise.reject(signal.reason ?? cancelledError())
    const number = nextCall++
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        calls.delete(number)
        send({ type: 'call-cancel', id, call: number })
        reject(signal?.reason ?? cancelledError())
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      calls.set(number, {
        resolve: (value) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(value)
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort)
          reject(error)
        },
      })
      send({ type: 'call', id, call: number, name, arg })
    })
  }
  channel.on('message', (message: unknown) => {
    if (!isToWorker(message)) return
    if (message.type === 'reply') {
      const waiting = calls.get(message.call)
      calls.delete(message.call)
      if ('error' in message) waiting?.reject(fromWorkerError(message.error))
      else waiting?.resolve(message.value)
      return
    }
    if (message.type === 'cancel') {
      running.get(message.id)?.abort()
      return
    }
    const { id, job, input } = message
    const controller = new AbortController()
    running.set(id, controller)
    const transfers: ArrayBuffer[] = []
    const context: JobContext<unknown, CallMap> = {
      call: (name, arg, signal) => call(id, name, arg, signal),
      signal: controller.signal,
      progress: (value) => send({ type: 'progress', id, value }),
      transfer: (...buffers) => {
        // A shared buffer is not moved (both threads see it already); each buffer is listed once.
        for (const buffer of buffers) {
          if (buffer instanceof ArrayBuffer && !transfers.includes(buffer)) transfers.push(buffer)
        }
      },
      logger,
    }
    void (async () => {
      try {
        if (!Object.hasOwn(handlers, job)) throw new Error(`This worker has no job called ${job}`)
        const handler = handlers[job] as (input: unknown, context: JobContext<unknown, CallMap>) => unknown
        // A job that answers after a cancel decides what its answer is (a sync's is its 'cancelled' summary).
        const output = await handler(input, context)
        send({ type: 'done', id, output }, transfers)
      } catch (error) {
        send({
          type: 'failed',
          id,
          error: toWorkerError(controller.signal.aborted ? cancelledError() : error),
        })
      } finally {
        running.delete(id)
      }
    })()
  })
}
