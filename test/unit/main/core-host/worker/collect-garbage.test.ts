import { describe, expect, it } from 'vitest'
import { collectGarbage } from '../../../../../src/main/core-host/worker/collect-garbage'

/**
 * The core worker's builds call collectGarbage() before answering, so that their garbage is gone before the
 * thread that answers IPC adopts the answer. Here: it really collects, with no command-line flag, and twice.
 */
describe('collectGarbage', () => {
  function unreachable(): WeakRef<object> {
    return new WeakRef({ rows: new Array<number>(100_000).fill(7) })
  }

  it('collects what nothing references any more, without --expose-gc', async () => {
    expect(process.execArgv.join(' ')).not.toContain('expose-gc')
    for (let round = 0; round < 2; round++) {
      const ref = unreachable()
      // A WeakRef keeps its target for the rest of the task that made it.
      await new Promise((resolve) => setTimeout(resolve, 0))
      collectGarbage()
      expect(ref.deref()).toBeUndefined()
    }
  })
})
