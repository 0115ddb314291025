import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { WorkerEntry } from './worker-host'

/**
 * The core worker ends after this long without a job, giving back its memory (about 235 MB after the builds of a
 * million-employee cache); starting it again adds about 80 ms to the next build or export.
 */
export const CORE_WORKER_IDLE_STOP_MS = 30_000

/**
 * Where the core worker's code is. The app's bundle has it beside the main bundle (out/main/core-worker.js, an
 * input of its own in electron.vite.config.ts, so its file is this module's neighbour once bundled); the CLI,
 * the tests and the benchmarks run the TypeScript source through tsx, in the worker as in the thread that
 * starts it.
 */
export function coreWorkerEntry(directory: string = __dirname): WorkerEntry {
  const built = join(directory, 'core-worker.js')
  if (existsSync(built)) return { file: built, execArgv: [] }
  return { file: join(directory, 'core-worker.ts'), execArgv: ['--import', 'tsx'] }
}
