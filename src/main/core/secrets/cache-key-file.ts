import { closeSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fsyncDirectory, PartFile } from '../durable-fs'
import { RosterDeskError } from '../errors'
import { mkdirOwnerOnly, OWNER_FILE_MODE } from '../owner-only'
import { CacheKey } from '../sqlite/cache-key'

/**
 * The owner-only file that keeps a user's cache key where no keychain does (issue 34): the CLI's always, the app's
 * when the machine policy allows it on a computer without a keychain (`personalData.cacheKeyFile`). It lives in
 * the user's RosterDesk configuration folder (the data folder, `appDataDir`), never in a cache's folder, so a
 * copied cache folder does not carry its key. Its content is the key's 64 hexadecimal digits and a newline.
 */
export const CACHE_KEY_FILE_NAME = 'cache.key'

/** The key file of the data folder `dataDir`. */
export function cacheKeyFilePath(dataDir: string): string {
  return join(dataDir, CACHE_KEY_FILE_NAME)
}

/** Whether the file exists (not whether it is a good one: `readCacheKeyFile` says that). */
export function cacheKeyFileExists(path: string): boolean {
  try {
    statSync(path)
    return true
  } catch {
    return false
  }
}

/**
 * The key in the file at `path`, or undefined when there is none. A file others may read or write (POSIX mode
 * beyond 0600), another account's, or one that holds anything but a key is refused with a precise error naming
 * the file and what to do; the key itself is never in a message.
 */
export function readCacheKeyFile(
  path: string,
  platform: NodeJS.Platform = process.platform,
): CacheKey | undefined {
  let text: string
  try {
    const stats = statSync(path)
    if (platform !== 'win32') refuseLoose(path, stats.mode, stats.uid)
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if (error instanceof RosterDeskError) throw error
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new RosterDeskError(
      'storage',
      `RosterDesk could not read the key of the saved employees, ${path}.`,
      {
        detail: `cache key file unreadable: ${(error as NodeJS.ErrnoException).code ?? 'unknown'}`,
        cause: error,
      },
    )
  }
  if (!/^[0-9a-f]{64}\r?\n?$/i.test(text))
    throw new RosterDeskError(
      'storage',
      `${path} is not a RosterDesk key file. Move it away; RosterDesk then makes a new key and the saved employees are synced again.`,
      { detail: `cache key file: ${text.length} characters, not 64 hexadecimal digits` },
    )
  return CacheKey.fromHex(text.trim())
}

function refuseLoose(path: string, mode: number, uid: number): void {
  const own = process.getuid?.()
  if ((mode & 0o077) !== 0)
    throw new RosterDeskError(
      'storage',
      `The key file ${path} may be read by other accounts. Make it readable by you only (chmod 600 "${path}").`,
      { detail: `cache key file mode ${(mode & 0o777).toString(8)}` },
    )
  if (own !== undefined && uid !== own)
    throw new RosterDeskError(
      'storage',
      `The key file ${path} belongs to another account; RosterDesk does not use it.`,
      {
        detail: `cache key file owner ${uid}, this process ${own}`,
      },
    )
}

/**
 * The key in the file at `path`, made (a new random key, CacheKey.create) when there is none: written to a part
 * file 0600, forced to the disk, then linked to its final name, which fails if another process made the file
 * meanwhile (that process's key is then read and used, so two writers never end with two keys). `created` says
 * whether this call made it.
 */
export function readOrCreateCacheKeyFile(
  path: string,
  platform: NodeJS.Platform = process.platform,
): { readonly key: CacheKey; readonly created: boolean } {
  const existing = readCacheKeyFile(path, platform)
  if (existing !== undefined) return { key: existing, created: false }
  const key = CacheKey.create()
  try {
    if (writeKeyOnce(path, key)) return { key, created: true }
  } catch (error) {
    throw new RosterDeskError(
      'storage',
      `RosterDesk could not write the key of the saved employees, ${path}.`,
      {
        detail: `cache key file write failed: ${(error as NodeJS.ErrnoException).code ?? 'unknown'}`,
        cause: error,
      },
    )
  }
  const raced = readCacheKeyFile(path, platform)
  if (raced === undefined) throw new RosterDeskError('storage', `RosterDesk could not write ${path}.`)
  return { key: raced, created: false }
}

/** Writes `key` to `path` unless a file is there already; false when one was. */
function writeKeyOnce(path: string, key: CacheKey): boolean {
  mkdirOwnerOnly(dirname(path))
  const part = PartFile.beside(path)
  const fd = openSync(part.path, 'wx', OWNER_FILE_MODE)
  try {
    try {
      writeSync(fd, `${key.revealHex()}\n`)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    try {
      linkSync(part.path, path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw error
    }
    fsyncDirectory(dirname(path))
    return true
  } finally {
    rmSync(part.path, { force: true })
  }
}
