/**
 * Waits until `condition` holds, checking every 10 ms, for at most `timeoutMs` of wall time (not a count of
 * checks: on a loaded machine each check's turn comes late). Throws naming what was awaited when it never holds.
 */
export async function until(
  condition: () => boolean,
  what = 'the condition',
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} was not reached within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
