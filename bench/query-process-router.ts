import { readFileSync } from 'node:fs'
import type { EmployeeQuery } from '../src/shared/domain/query'
import { silentLogger } from '../src/main/core/log/logger'
import { coreProcessEntry, forkedProcessChannel } from '../src/main/shell/core-process/core-process-channel'
import { RemoteAppCore } from '../src/main/shell/core-process/remote-app-core'
import { MemorySecretStore } from '../src/main/core/secrets/secret-store'
import { CORE_WORKER_IDLE_STOP_MS } from '../src/main/core-host/worker/worker-entry'
import { StallMonitor } from '../src/main/core-host/worker/stall-monitor'

/**
 * The router side of the query-process section: a fresh process standing for Electron's main as the app runs it.
 * It starts the real core process (out/main/core-process.js, built from src/main/core-host/core-process.ts, forked by Node
 * where the app uses utilityProcess; both carry structured clones) through the shell's own RemoteAppCore, sends it the first query and the
 * 200-query mix twice, each as the `employees:query` request a window makes, and prints one JSON line.
 */

export interface QueryProcessReport {
  /** From starting the core process to the first query's answer (the process's start, the core's open). */
  readonly firstRowsMs: number
  /** Round trips of the mix, first use then warm, as this process saw them. */
  readonly firstUse: readonly number[]
  readonly warm: readonly number[]
  /** The longest task on this thread during each pass. */
  readonly firstUseLongestMs: number
  readonly warmLongestMs: number
  /** This process (the main process's part) after the mix and a second of quiet. */
  readonly routerRssMb: number
  /** The core process then, its core worker still alive; and once the worker ended for lack of work. */
  readonly engineRssMb: number
  readonly engineRestingRssMb: number
  /** This process once more, at the end. */
  readonly routerRestingRssMb: number
}

/** A child process's resident memory (Linux's /proc; NaN elsewhere). */
function childRssMb(): number {
  try {
    const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
    const kib = children
      .map((pid) => /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
      .reduce((sum, value) => sum + Number(value ?? 0), 0)
    return kib / 1024
  } catch {
    return Number.NaN
  }
}

async function main(dataDir: string, queriesFile: string, builtDir: string): Promise<void> {
  const queries = JSON.parse(readFileSync(queriesFile, 'utf8')) as EmployeeQuery[]
  const [first, ...mix] = queries
  if (first === undefined) throw new Error('bench: no queries')
  const started = performance.now()
  const core = await RemoteAppCore.start({
    // The built bundle, as the app ships it (plain Node, no tsx), found as the shell finds it.
    channel: forkedProcessChannel(coreProcessEntry(builtDir)),
    config: { appInfo: { name: 'RosterDesk', version: 'bench', platform: process.platform }, dataDir },
    shell: {
      secrets: new MemorySecretStore(),
      openExternal: async () => undefined,
      chooseExportPath: async () => undefined,
      revealFile: () => undefined,
    },
    events: { emit: () => undefined },
    logger: silentLogger,
  })
  const ask = async (input: EmployeeQuery): Promise<number> => {
    const start = performance.now()
    const result = await core.invoke('employees:query', [input])
    // A refused query is a broken bench, never a fast answer.
    if (!result.ok) throw new Error(`bench: query refused: ${result.error.message}`)
    return performance.now() - start
  }
  try {
    await ask(first)
    const firstRowsMs = performance.now() - started
    const pass = async (): Promise<{ times: number[]; longestMs: number }> => {
      const monitor = new StallMonitor()
      monitor.start()
      const times: number[] = []
      for (const input of mix) {
        // Each IPC request is a task of its own in the app (see main-thread-bench.ts).
        await new Promise((resolve) => setImmediate(resolve))
        times.push(await ask(input))
      }
      return { times, longestMs: monitor.stop().longestMs }
    }
    const firstUse = await pass()
    const warm = await pass()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const routerRssMb = process.memoryUsage().rss / 1_048_576
    const engineRssMb = childRssMb()
    await new Promise((resolve) => setTimeout(resolve, CORE_WORKER_IDLE_STOP_MS + 2000))
    const report: QueryProcessReport = {
      firstRowsMs,
      firstUse: firstUse.times,
      warm: warm.times,
      firstUseLongestMs: firstUse.longestMs,
      warmLongestMs: warm.longestMs,
      routerRssMb,
      engineRssMb,
      engineRestingRssMb: childRssMb(),
      routerRestingRssMb: process.memoryUsage().rss / 1_048_576,
    }
    process.stdout.write(`${JSON.stringify(report)}\n`)
  } finally {
    await core.close()
  }
}

const [dataDir, queriesFile, builtDir] = process.argv.slice(2)
main(dataDir ?? '', queriesFile ?? '', builtDir ?? '').catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
