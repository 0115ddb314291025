import { randomBytes } from 'node:crypto'
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import { fsyncDirectory } from '../durable-fs'
import { diskFullError, isDiskFull } from '../disk-full'

/**
 * Writes `data` so that readers see the old file or the new one, never half of either: a temp file in the same
 * folder, flushed, then renamed over. The mode is set at creation, so a secret is never readable by others even
 * for a moment (POSIX; Windows ignores modes and relies on the per-user profile folder).
 */
export async function writeFileAtomic(
  path: string,
  data: string,
  mode = 0o600,
  /** For a full disk's message: "Saving the sign-in details". */
  what = `Saving ${basename(path)}`,
): Promise<void> {
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
    // The new name is durable only once the folder's entry is (POSIX; a no-op where unsupported).
    fsyncDirectory(dirname(path))
  } catch (error) {
    await rm(temp, { force: true })
    if (!isDiskFull(error)) throw error
    throw diskFullError({
      what,
      folder: dirname(path),
      // The new file is written beside the old one, which stays until the rename.
      neededBytes: Buffer.byteLength(data),
      kept: 'The file saved before is unchanged.',
      cause: error,
    })
  }
}
