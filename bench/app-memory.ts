import { CORE_WORKER_IDLE_STOP_MS } from '../src/main/core-host/worker/worker-entry'
import { dispatchInvoke } from '../src/main/core/ipc/dispatch'
import { appCoreOver, benchQueries } from './query-bench'

/**
 * Child process of the main-thread section: the app core over a seeded data folder, its first rows, then the
 * query mix twice (first use, warm), as the app's core process runs them, and one JSON line with the
 * process's memory after a second of quiet and again once the core worker's idle stop has passed. A process of
 * its own, so that nothing the bench did before (seeding a million rows, other sections) counts in the figure.
 */

/** The child's JSON line. */
export interface AppMemory {
  readonly rssMb: number
  /** The JS heap of the thread that answers IPC. */
  readonly heapUsedMb: number
  /** Memory of that thread's typed arrays and buffers (the snapshot's index, sort orders, column indexes). */
  readonly externalMb: number
  /** The process's RSS once the core worker has ended for lack of work (CORE_WORKER_IDLE_STOP_MS later). */
  readonly restingRssMb: number
  /** RSS before the app core was created: the runtime, tsx and the bench's own modules. */
  readonly startRssMb: number
}

const mb = (bytes: number): number => bytes / 1_048_576

async function main(dataDir: string, employees: number): Promise<void> {
  const startRssMb = mb(process.memoryUsage().rss)
  const core = await appCoreOver(dataDir)
  try {
    const queries = [{ limit: 100, facets: true }, ...benchQueries(200, employees)]
    for (let pass = 0; pass < 2; pass++) {
      for (const input of queries) {
        await new Promise((resolve) => setImmediate(resolve))
        const result = await dispatchInvoke(core.handlers, 'employees:query', [input])
        if (!result.ok) throw new Error(`bench: query refused: ${result.error.message}`)
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const usage = process.memoryUsage()
    await new Promise((resolve) => setTimeout(resolve, CORE_WORKER_IDLE_STOP_MS + 2000))
    const line: AppMemory = {
      rssMb: mb(usage.rss),
      heapUsedMb: mb(usage.heapUsed),
      externalMb: mb(usage.external),
      restingRssMb: mb(process.memoryUsage().rss),
      startRssMb,
    }
    process.stdout.write(`${JSON.stringify(line)}\n`)
  } finally {
    await core.close()
  }
}

const [dataDir, employees] = process.argv.slice(2)
main(dataDir ?? '', Number(employees)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
