/**
 * Runs `work` over `tasks` with at most `concurrency` in flight, in task order. Tasks are drawn from the iterable
 * one at a time as a lane frees up, so a generator's tasks never exist all at once (a list claiming ten million
 * pages costs no ten-million-entry array). On the first failure the
 * remaining tasks are not started, `abort` tells the running ones to stop, and the call settles only after
 * every running task has finished, so nothing a failed pool started can still write afterwards.
 */
export async function runBounded<T>(
  tasks: Iterable<T>,
  concurrency: number,
  work: (task: T, signal: AbortSignal) => Promise<void>,
  outer?: AbortSignal,
): Promise<void> {
  const controller = new AbortController()
  const onOuterAbort = (): void => controller.abort(outer?.reason)
  if (outer?.aborted) controller.abort(outer.reason)
  else outer?.addEventListener('abort', onOuterAbort, { once: true })

  const iterator = tasks[Symbol.iterator]()
  let exhausted = false
  let failed = false
  let failure: unknown
  const lane = async (): Promise<void> => {
    while (!failed && !controller.signal.aborted && !exhausted) {
      const next = iterator.next()
      if (next.done === true) {
        exhausted = true
        break
      }
      const task = next.value
      try {
        await work(task, controller.signal)
      } catch (error) {
        if (!failed) {
          failed = true
          failure = error
          controller.abort(error)
        }
      }
    }
  }
  try {
    const lanes = Array.from({ length: Math.max(1, concurrency) }, lane)
    await Promise.all(lanes)
  } finally {
    outer?.removeEventListener('abort', onOuterAbort)
  }
  if (failed) throw failure
  if (outer?.aborted) throw outer.reason
}
