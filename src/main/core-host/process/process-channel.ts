import type { JobPort } from '../worker/serve-jobs'
import type { FromWorker } from '../worker/worker-protocol'

/** Electron's link from a utility process to its parent (`process.parentPort`); not in Node's own types. */
interface ParentPort {
  on(event: 'message', listener: (event: { readonly data: unknown }) => void): unknown
  postMessage(message: unknown): void
}

/**
 * The serving end of a process channel. In Electron's utility process it is `process.parentPort` (each message
 * wrapped in an event's `data`); in a process forked by Node (tests, benchmarks, the shell's stand-in) it is the
 * IPC channel of `process.send`, with Node's 'advanced' (structured clone) serialisation, so both carry the same
 * values. Buffers are copied, never moved, in either.
 */
export function processPort(): JobPort {
  const parentPort = (process as { parentPort?: ParentPort }).parentPort
  if (parentPort !== undefined) {
    return {
      on: (_event, listener) => parentPort.on('message', (event) => listener(event.data)),
      postMessage: (message: FromWorker) => parentPort.postMessage(message),
    }
  }
  const send = process.send?.bind(process)
  if (send === undefined) throw new Error('processPort runs only in a process started with an IPC channel')
  // Its parent is gone (a crash, a kill): nothing can reach this process any more, and its demo server would
  // keep it alive. Electron ends a utility process with the app; a forked one ends here. The cache is crash-safe.
  process.once('disconnect', () => process.exit(0))
  return {
    on: (_event, listener) => process.on('message', listener),
    postMessage: (message: FromWorker) => void send(message),
  }
}
