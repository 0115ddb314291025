import { fork } from 'node:child_process'
import { join } from 'node:path'
import type { EmployeeQuery } from '../src/shared/domain'
import { StallMonitor } from '../src/main/core/workers/stall-monitor'
import type { EngineMessage, RouterMessage } from './query-process-engine'

/**
 * The router side of the query-process section: a fresh process standing for Electron's main when the index
 * lives in another process. It imports nothing of the app but the stall probe, forks the engine
 * (query-process-engine.ts, Node's IPC with structured-clone serialisation, as a utilityProcess's messages
 * are), sends it the first query and the 200-query mix twice, and prints one JSON line.
 */

export interface QueryProcessReport {
  /** From forking the engine to the first query's answer. */
  readonly firstRowsMs: number
  /** From the engine's core beginning to open to the first query's answer (the in-process section's measure). */
  readonly openToFirstRowsMs: number
  /** Round trips of the mix, first use then warm, as this process saw them. */
  readonly firstUse: readonly number[]
  readonly warm: readonly number[]
  /** The longest task on this thread during each pass. */
  readonly firstUseLongestMs: number
  readonly warmLongestMs: number
  readonly routerRssMb: number
  readonly engineRssMb: number
}

async function main(dataDir: string, employees: number): Promise<void> {
  const started = performance.now()
  const engine = fork(join(__dirname, 'query-process-engine.ts'), [dataDir, String(employees)], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
  })
  const waiting = new Map<number, (refused?: string) => void>()
  let queries: readonly EmployeeQuery[] = []
  let openingAt = 0
  let ready: () => void = () => undefined
  const isReady = new Promise<void>((resolve) => (ready = resolve))
  let memory: (rssMb: number) => void = () => undefined
  engine.on('message', (message: EngineMessage) => {
    if (message.type === 'ready') {
      queries = message.queries
      openingAt = message.openingAt
      ready()
    } else if (message.type === 'answer') {
      const result = message.result as { ok?: boolean; error?: { message?: string } }
      waiting.get(message.id)?.(result.ok === true ? undefined : (result.error?.message ?? 'refused'))
      waiting.delete(message.id)
    } else memory(message.rssMb)
  })
  const send = (message: RouterMessage) => engine.send(message)
  let next = 1
  const ask = (input: EmployeeQuery): Promise<number> => {
    const id = next++
    const start = performance.now()
    return new Promise((resolve, reject) => {
      // A refused query is a broken bench, never a fast answer.
      waiting.set(id, (refused) =>
        refused === undefined
          ? resolve(performance.now() - start)
          : reject(new Error(`bench: query refused: ${refused}`)),
      )
      send({ type: 'query', id, input })
    })
  }
  try {
    await isReady
    const [first, ...mix] = queries
    if (first === undefined) throw new Error('the engine sent no queries')
    await ask(first)
    const firstRowsMs = performance.now() - started
    const openToFirstRowsMs = performance.now() + performance.timeOrigin - openingAt
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
    const engineRssMb = await new Promise<number>((resolve) => {
      memory = resolve
      send({ type: 'memory' })
    })
    const report: QueryProcessReport = {
      firstRowsMs,
      openToFirstRowsMs,
      firstUse: firstUse.times,
      warm: warm.times,
      firstUseLongestMs: firstUse.longestMs,
      warmLongestMs: warm.longestMs,
      routerRssMb: process.memoryUsage().rss / 1_048_576,
      engineRssMb,
    }
    process.stdout.write(`${JSON.stringify(report)}\n`)
  } finally {
    engine.disconnect()
  }
}

const [dataDir, employees] = process.argv.slice(2)
main(dataDir ?? '', Number(employees)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
