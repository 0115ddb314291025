import { parentPort } from 'node:worker_threads'
import type { MessagePort } from 'node:worker_threads'
import { cancelledError } from '../errors'
import type { FromWorker, JobMap } from './worker-protocol'
import { isToWorker, toWorkerError } from './worker-protocol'

/** What a job handler gets besides its input. */
export interface JobContext<Progress> {
  /** Aborted when the host cancels this job; a handler checks it between steps of its work. */
  readonly signal: AbortSignal
  progress(value: Progress): void
  /** Buffers of the output to move to the host rather than copy (typed arrays of a built index). */
  transfer(...buffers: ArrayBufferLike[]): void
}

export type JobHandlers<Jobs extends JobMap> = {
  readonly [K in keyof Jobs]: (
    input: Jobs[K]['input'],
    context: JobContext<Jobs[K]['progress']>,
  ) => Promise<Jobs[K]['output']> | Jobs[K]['output']
}

/**
 * The worker's side of worker-host.ts: runs each job it is sent with its handler, several at once when they
 * await, and answers with the output, progress or a typed error. Call once from a worker entry file.
 */
export function serveJobs<Jobs extends JobMap>(handlers: JobHandlers<Jobs>, port = parentPort): void {
  if (port === null) throw new Error('serveJobs runs only inside a worker thread')
  const channel: MessagePort = port as MessagePort
  const running = new Map<number, AbortController>()
  const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => channel.postMessage(message, transfer)
  channel.on('message', (message: unknown) => {
    if (!isToWorker(message)) return
    if (message.type === 'cancel') {
      running.get(message.id)?.abort()
      return
    }
    const { id, job, input } = message
    const controller = new AbortController()
    running.set(id, controller)
    const transfers: ArrayBuffer[] = []
    const context: JobContext<unknown> = {
      signal: controller.signal,
      progress: (value) => send({ type: 'progress', id, value }),
      transfer: (...buffers) => {
        // A shared buffer is not moved (both threads see it already); each buffer is listed once.
        for (const buffer of buffers) {
          if (buffer instanceof ArrayBuffer && !transfers.includes(buffer)) transfers.push(buffer)
        }
      },
    }
    void (async () => {
      try {
        if (!Object.hasOwn(handlers, job)) throw new Error(`This worker has no job called ${job}`)
        const handler = handlers[job] as (input: unknown, context: JobContext<unknown>) => unknown
        const output = await handler(input, context)
        if (controller.signal.aborted) throw cancelledError()
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
