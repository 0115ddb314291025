import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { JobPort } from '../worker/serve-jobs'
import type { FromWorker } from '../worker/worker-protocol'
import type { JobChannelStarter, WorkerEntry } from '../worker/worker-host'

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

/**
 * Where the core process's code is: out/main/core-process.js in `directory`, the main bundle's folder once built
 * (an input of its own in electron.vite.config.ts); when no bundle is there, the source, src/main/core-host/core-process.ts,
 * under tsx (tests, benchmarks).
 */
export function coreProcessEntry(directory: string = __dirname): WorkerEntry {
  const built = join(directory, 'core-process.js')
  if (existsSync(built)) return { file: built, execArgv: [] }
  return { file: resolve(__dirname, '../core-process.ts'), execArgv: ['--import', 'tsx'] }
}

/**
 * A process forked by Node as a job channel: how tests and benchmarks run the core process (the app uses
 * Electron's utilityProcess, adapters/utility-process-channel.ts). Its stderr goes to the log as warnings.
 */
export function forkedProcessChannel(
  entry: WorkerEntry,
  env: NodeJS.ProcessEnv = process.env,
): JobChannelStarter {
  return {
    start(name, logger) {
      const child = fork(entry.file, [], {
        execArgv: [...entry.execArgv],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        env,
      })
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (text: string) => logger.warn(`${name} (stderr): ${text.trimEnd()}`))
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      return {
        postMessage: (message) => void child.send(message),
        onMessage: (listener) => void child.on('message', listener),
        onError: (listener) => void child.on('error', listener),
        onExit: (listener) => void child.on('exit', (code, signal) => listener(code ?? (signal ? 1 : 0))),
        ref: () => {
          child.ref()
          child.channel?.ref()
        },
        unref: () => {
          child.unref()
          child.channel?.unref()
        },
        terminate: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill()
          await exited
        },
      }
    },
  }
}
