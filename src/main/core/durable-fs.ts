import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync } from 'node:fs'
import { chmod, lstat, open, readdir, rename, rm, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { diskFullError, isDiskFull } from './disk-full'
import { mkdirOwnerOnly, OWNER_FILE_MODE } from './owner-only'

// Every durable write RosterDesk makes: a file replaced whole (secrets, the token file, an export) and the
// last steps of sealing a file written in place (snapshots, change logs). A module of its own, so that what
// needs only these (the secret store in Electron's main) loads no SQLite or exceljs with them.

/** Flushes a file's data to the disk, on libuv's thread pool, so the event loop is not held meanwhile. */
export async function fsyncFileAsync(path: string): Promise<void> {
  const handle = await open(path, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Makes a new directory entry durable. Windows cannot fsync directories; NTFS journals the entry itself. */
export function fsyncDirectory(path: string): void {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    fsyncSync(fd)
  } catch {
    // Not supported on this platform: nothing more can be done.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/**
 * The names PartFile gives, and nothing else: `.<final name>.<pid>-<8 hex>.part`, and `.<final name>.<8 hex>.part`
 * as versions before the pid wrote them.
 */
export const PART_FILE_NAME = /^\..+\.(?:(\d+)-)?[0-9a-f]{8}\.part$/

/** A part file untouched this long is a killed writer's, unless its writer still runs (a machine asleep). */
export const STALE_PART_AGE_MS = 60 * 60 * 1000

/**
 * A new version of `finalPath`, written under a part file's name beside it (the same folder, so the final rename
 * cannot cross drives) and given the final name by `publish` only once it is complete and on the disk: readers
 * see the old file or the new one, never half of either, and an existing file of that name survives until the
 * new one is ready. Its writer creates the part file exclusively (`wx`) at `path`, writes it as it likes (a
 * stream, a single write), then publishes it, or discards it on any failure or cancel.
 */
export class PartFile {
  private constructor(
    readonly finalPath: string,
    /** Where the new version is written until `publish`. */
    readonly path: string,
  ) {}

  /**
   * A part file for `finalPath`: hidden on macOS and Linux, recognisable, unique per attempt, and naming the
   * writing process, so a later writer can tell a killed writer's file from one still being written
   * (removeStalePartFiles; PART_FILE_NAME is the pattern).
   */
  static beside(finalPath: string): PartFile {
    const name = `.${basename(finalPath)}.${process.pid}-${randomBytes(4).toString('hex')}.part`
    return new PartFile(finalPath, join(dirname(finalPath), name))
  }

  /**
   * Forces the written data to the disk, gives the file its final name, then makes that name durable. Without
   * the fsync a power cut soon after the rename can leave the final name on an empty or partly written file (the
   * rename reaches the disk before the data on some file systems). The writer has closed the file.
   */
  async publish(): Promise<void> {
    await fsyncFileAsync(this.path)
    await rename(this.path, this.finalPath)
    // The new name is durable only once the folder's entry is (POSIX; a no-op where unsupported).
    fsyncDirectory(dirname(this.finalPath))
  }

  /** Removes the part file. Never throws: it runs on paths that already failed. */
  async discard(): Promise<void> {
    try {
      await rm(this.path, { force: true })
    } catch {
      // The folder vanished with it, or it cannot be removed: nothing more can be done here.
    }
  }
}

export interface StalePartOptions {
  readonly now: number
  /**
   * Only files last written before this time (ms since the epoch) go; absent: `now - STALE_PART_AGE_MS`. The app's
   * start sweep (leftovers.ts) gives its own process's start.
   */
  readonly lastWrittenBefore?: number
  /** Whether a process runs (process.kill(pid, 0) by default; tests name their own). */
  readonly isRunning?: (pid: number) => boolean
}

/**
 * Removes the part files a killed writer left in `folder` (a cancel or a failure discards its own): PartFile's
 * names only, regular files, last written before `lastWrittenBefore` (by default over STALE_PART_AGE_MS ago), and
 * whose writing process is gone (a name without a pid is an older version's; its age alone decides). Never
 * throws: a folder it cannot read is the writer's to report. Resolves with how many it removed.
 */
export async function removeStalePartFiles(folder: string, options: StalePartOptions): Promise<number> {
  const isRunning = options.isRunning ?? processRuns
  const cutoff = options.lastWrittenBefore ?? options.now - STALE_PART_AGE_MS
  let names: string[]
  try {
    names = await readdir(folder)
  } catch {
    return 0
  }
  let removed = 0
  for (const name of names) {
    const match = PART_FILE_NAME.exec(name)
    if (match === null) continue
    const pid = match[1] === undefined ? undefined : Number(match[1])
    if (pid !== undefined && isRunning(pid)) continue
    const path = join(folder, name)
    try {
      const stats = await lstat(path)
      if (!stats.isFile() || stats.mtimeMs >= cutoff) continue
      await unlink(path)
      removed++
    } catch {
      // Gone meanwhile, or not ours to remove (another user's, a read-only folder): left as it is.
    }
  }
  return removed
}

/** True while a process of that id exists (EPERM: it does, as another user's). */
function processRuns(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Replaces the file at `path` with `data` through a PartFile, creating its folder if need be (0700, owner-only.ts).
 * The mode is set at creation, so a secret is never readable by others even for a moment (POSIX; Windows ignores modes and relies
 * on the per-user profile folder). A full disk is reported as such, in the words of `what`.
 */
export async function writeFileDurably(
  path: string,
  data: string,
  mode = OWNER_FILE_MODE,
  /** For a full disk's message: "Saving the sign-in details". */
  what = `Saving ${basename(path)}`,
): Promise<void> {
  mkdirOwnerOnly(dirname(path))
  const part = PartFile.beside(path)
  try {
    const handle = await open(part.path, 'wx', mode)
    try {
      await handle.writeFile(data, 'utf8')
    } finally {
      await handle.close()
    }
    // open() applies the umask; chmod makes the mode exact.
    await chmod(part.path, mode)
    await part.publish()
  } catch (error) {
    await part.discard()
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
