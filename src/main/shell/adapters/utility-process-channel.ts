import { utilityProcess } from 'electron'
import type { JobChannelStarter, WorkerEntry } from '../../core-host/worker/worker-host'

/** How long ending the process may take to be confirmed before the shell stops waiting for it. */
const TERMINATE_WAIT_MS = 5_000

/**
 * Electron's utilityProcess as a job channel: the app core runs there (ARCHITECTURE, "Runtimes and threads"), as Electron's
 * performance guide advises for heavy work, with Node's APIs and none of main's. Messages are structured
 * clones both ways (buffers copied: a utility process moves only MessagePorts). Its stderr (a native crash's
 * last words) goes to the log; its own log entries come as messages. It never keeps the app alive by itself,
 * so ref/unref have nothing to do.
 */
export function utilityProcessChannel(entry: WorkerEntry): JobChannelStarter {
  return {
    start(name, logger) {
      const child = utilityProcess.fork(entry.file, [], {
        serviceName: 'RosterDesk core',
        execArgv: [...entry.execArgv],
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (text: string) => logger.warn(`${name} (stderr): ${text.trimEnd()}`))
      let exited = false
      const exit = new Promise<void>((resolve) =>
        child.once('exit', () => {
          exited = true
          resolve()
        }),
      )
      return {
        postMessage: (message) => child.postMessage(message),
        onMessage: (listener) => void child.on('message', listener),
        onError: (listener) =>
          void child.on('error', (type: string, location: string) =>
            listener(new Error(`${name}: ${type} at ${location}`)),
          ),
        onExit: (listener) => void child.on('exit', listener),
        ref: () => undefined,
        unref: () => undefined,
        terminate: async () => {
          if (exited) return
          // kill() refuses a process not launched yet (no pid), which may still launch later and run the jobs
          // queued for it: end it as soon as it does.
          if (!child.kill() && child.pid === undefined) child.once('spawn', () => child.kill())
          await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, TERMINATE_WAIT_MS))])
        },
      }
    },
  }
}
