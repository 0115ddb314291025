import { randomBytes } from 'node:crypto'
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Writes `data` so that readers see the old file or the new one, never half of either: a temp file in the same
 * folder, flushed, then renamed over. The mode is set at creation, so a secret is never readable by others even
 * for a moment (POSIX; Windows ignores modes and relies on the per-user profile folder).
 */
export async function writeFileAtomic(path: string, data: string, mode = 0o600): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  try {
    const handle = await open(temp, 'wx', mode)
    try {
      await handle.writeFile(data, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    // open() applies the umask; chmod makes the mode exact.
    await chmod(temp, mode)
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}
