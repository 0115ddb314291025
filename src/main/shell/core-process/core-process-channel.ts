import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { JobChannelStarter, WorkerEntry } from '../../core-host/worker/worker-host'

/**
 * Where the core process's code is: out/main/core-process.js in `directory`, the main bundle's folder once built
 * (an input of its own in electron.vite.config.ts); when no bundle is there, the source, src/main/core-host/core-process.ts,
 * under tsx (tests, benchmarks).
 */
export function coreProcessEntry(directory: string = __dirname): WorkerEntry {
  const built = join(directory, 'core-process.js')
  if (existsSync(built)) return { file: built, execArgv: [] }
  return { file: resolve(__dirname, '../../core-host/core-process.ts'), execArgv: ['--import', 'tsx'] }
}

/**
 * A process forked by Node as a job channel: how tests and benchmarks run the core process (the app uses
 * Electron's utilityProcess, shell/adapters/utility-process-channel.ts). Its stderr goes to the log as warnings.
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
