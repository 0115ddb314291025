import { mkdir, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'

/** A lock left behind by a crashed test process is taken over after this long. */
const LOCK_STALE_MS = 5 * 60_000

/**
 * Runs `work` holding a directory lock (mkdir is atomic), so test files in parallel workers build a shared thing
 * once. A lock older than five minutes is a crash's leftover and is taken over.
 */
export async function withDirLock<T>(lockDir: string, work: () => Promise<T>): Promise<T> {
  await mkdir(dirname(lockDir), { recursive: true })
  const deadline = Date.now() + LOCK_STALE_MS
  for (;;) {
    try {
      await mkdir(lockDir)
      break
    } catch {
      const age = await stat(lockDir).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      )
      if (age > LOCK_STALE_MS) await rm(lockDir, { recursive: true, force: true })
      else if (Date.now() > deadline) throw new Error(`Timed out waiting for another build (${lockDir})`)
      else await new Promise((resolveWait) => setTimeout(resolveWait, 250))
    }
  }
  try {
    return await work()
  } finally {
    await rm(lockDir, { recursive: true, force: true })
  }
}
