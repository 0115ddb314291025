import type { EmployeeQuery } from '../src/shared/domain'
import { dispatchInvoke } from '../src/main/core/ipc/dispatch'
import { appCoreOver, benchQueries } from './query-bench'

/**
 * The engine side of the query-process section (query-process-bench.ts): the app core over a seeded data folder
 * in a process of its own, answering `employees:query` messages from its parent (query-process-router.ts) as a
 * utilityProcess owning the index would answer Electron's main. It sends the mix first, so the router imports
 * nothing of the app.
 */

/** Messages between the router and this process. */
export type EngineMessage =
  | {
      readonly type: 'ready'
      readonly queries: readonly EmployeeQuery[]
      /** When the core began opening, by this process's clock (ms since it started). */
      readonly openingAt: number
    }
  | { readonly type: 'answer'; readonly id: number; readonly result: unknown }
  | { readonly type: 'memory'; readonly rssMb: number }
export type RouterMessage =
  { readonly type: 'query'; readonly id: number; readonly input: EmployeeQuery } | { readonly type: 'memory' }

async function main(dataDir: string, employees: number): Promise<void> {
  const send = (message: EngineMessage) => process.send?.(message)
  const openingAt = performance.now()
  const core = await appCoreOver(dataDir)
  process.on('message', (message: RouterMessage) => {
    if (message.type === 'memory') {
      send({ type: 'memory', rssMb: process.memoryUsage().rss / 1_048_576 })
      return
    }
    void dispatchInvoke(core.handlers, 'employees:query', [message.input]).then((result) =>
      send({ type: 'answer', id: message.id, result }),
    )
  })
  // The router is done: close the core as the app would, then end (the worker and timers are let go with it).
  process.on('disconnect', () => void core.close().finally(() => process.exit(0)))
  send({
    type: 'ready',
    queries: [{ limit: 100, facets: true }, ...benchQueries(200, employees)],
    openingAt: openingAt + performance.timeOrigin,
  })
}

const [dataDir, employees] = process.argv.slice(2)
main(dataDir ?? '', Number(employees)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
