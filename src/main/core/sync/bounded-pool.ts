/**
 * Runs `work` over `tasks` with at most `concurrency` in flight, in task order. On the first failure the
 * remaining tasks are not started, `abort` tells the running ones to stop, and the call settles only after
 * every running task has finished, so nothing a failed pool started can still write afterwards.
 */
export async function runBounded<T>(
  tasks: readonly T[],
  concurrency: number,
  work: (task: T, signal: AbortSignal) => Promise<void>,
  outer?: AbortSignal,
): Promise<void> {
  const controller = new AbortController()
  const onOuterAbort = (): void => controller.abort(outer?.reason)
  if (outer?.aborted) controller.abort(outer.reason)
  else outer?.addEventListener('abort', onOuterAbort, { once: true })

  let next = 0
  let failed = false
  let failure: unknown
  const lane = async (): Promise<void> => {
    while (!failed && !controller.signal.aborted && next < tasks.length) {
      const task = tasks[next++] as T
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
    const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, tasks.length)) }, lane)
    await Promise.all(lanes)
  } finally {
    outer?.removeEventListener('abort', onOuterAbort)
  }
  if (failed) throw failure
  if (outer?.aborted) throw outer.reason
}
