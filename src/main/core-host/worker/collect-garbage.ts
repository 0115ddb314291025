import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let collect: (() => void) | null | undefined

/**
 * A full garbage collection of this thread's heap, now; nothing where the runtime offers none.
 *
 * Why: a first-use build on the core worker leaves hundreds of MB of garbage (an e-mail column's index builds a
 * 300–550 MB heap at 1,000,000 rows). Left to V8, that heap is collected just after the answer is posted, exactly
 * while the thread that answers IPC adopts the answer and runs the query that asked for it, and the collection's
 * parallel marking then holds both cores of a small machine: the main thread's longest task in the query bench
 * was that overlap (65–120 ms). Collected before answering, it happens while the main thread only waits.
 *
 * `gc` is exposed through V8's flag in a fresh context, so no command-line flag is needed in the app or the CLI.
 * Changing a flag after start-up is allowed where V8 was started with `--no-freeze-flags-after-init`, as Node
 * and Electron's main process both start it (Electron: shell/browser/javascript_environment.cc); where flags are
 * frozen V8 aborts the process rather than throw, so this belongs only in those two, never in a renderer.
 */
export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc')
      const exposed: unknown = runInNewContext('typeof gc === "function" ? gc : null')
      collect = typeof exposed === 'function' ? (exposed as () => void) : null
    } catch {
      collect = null
    }
  }
  collect?.()
}
