import { createWriteStream } from 'node:fs'
import type { WriteStream } from 'node:fs'
import { lstat, open, readdir, rename, unlink } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import { fsyncDirectory } from '../durable-fs'
import { diskFullError, isDiskFull } from '../disk-full'
import { BatchedWritable } from './batched-writable'
import { exportStorageError } from './export-storage-error'

/**
 * The names AtomicFile gives its temporary files, and nothing else: `.<final name>.<pid>-<8 hex>.part`, and
 * `.<final name>.<8 hex>.part` as versions before the pid wrote them.
 */
export const PART_FILE_NAME = /^\..+\.(?:(\d+)-)?[0-9a-f]{8}\.part$/

/** A partial file untouched this long is a killed export's, unless its writer still runs (a machine asleep). */
export const STALE_PART_AGE_MS = 60 * 60 * 1000

export interface StalePartOptions {
  readonly now: number
  /** Whether a process runs (process.kill(pid, 0) by default; tests name their own). */
  readonly isRunning?: (pid: number) => boolean
}

/**
 * Removes the partial files a killed export left in `folder` (a cancel or a failure removes its own): AtomicFile's
 * names only, regular files, last written over STALE_PART_AGE_MS ago, and whose writing process is gone (a name
 * without a pid is an older version's; its age alone decides). Never throws: a folder it cannot read is the
 * export's to report. Resolves with how many it removed.
 */
export async function removeStalePartFiles(folder: string, options: StalePartOptions): Promise<number> {
  const isRunning = options.isRunning ?? processRuns
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
      if (!stats.isFile() || options.now - stats.mtimeMs < STALE_PART_AGE_MS) continue
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
 * A file that appears under its real name only when it is complete. It is written to a hidden temporary name in
 * the same folder (so the final rename cannot cross drives) and renamed at the end; a cancelled or failed export
 * removes the temporary file, so the clerk never finds half a spreadsheet, and an existing file of the same
 * name survives until the new one is ready.
 */
export class AtomicFile {
  private firstError: unknown = undefined
  /** Bytes queued for the file, and held by the batches, when it failed (read before the failure drops them). */
  private queuedAtFailure = 0
  private closed = false
  private readonly closedPromise: Promise<void>
  /** Where the writers write: the file's stream, gathered into batches (batched-writable.ts). */
  readonly stream: BatchedWritable

  private constructor(
    readonly finalPath: string,
    readonly tempPath: string,
    private readonly file: WriteStream,
  ) {
    const recordError = (error: unknown): void => {
      if (this.firstError !== undefined) return
      this.firstError = error
      // Heard from the file before the batches are (their listener comes second), so they still hold their bytes.
      this.queuedAtFailure = file.writableLength + this.stream.heldBytes
    }
    file.on('error', recordError)
    this.closedPromise = new Promise((resolve) => {
      file.once('close', () => {
        this.closed = true
        resolve()
      })
    })
    this.stream = new BatchedWritable(file)
    // The file's error comes out of the batches too; heard here, it is failure()'s to report, never unhandled.
    this.stream.on('error', recordError)
  }

  /**
   * The temporary name for `finalPath`: hidden on macOS and Linux, recognisable, unique per attempt, and naming
   * the writing process, so a later export can tell a killed export's file from one still being written
   * (removeStalePartFiles; PART_FILE_NAME is the pattern).
   */
  static tempPathFor(finalPath: string): string {
    return join(
      dirname(finalPath),
      `.${basename(finalPath)}.${process.pid}-${randomBytes(4).toString('hex')}.part`,
    )
  }

  /** Creates the temporary file; a folder that is missing or read-only fails here with a storage error. */
  static async create(finalPath: string): Promise<AtomicFile> {
    const tempPath = AtomicFile.tempPathFor(finalPath)
    const stream = createWriteStream(tempPath, { flags: 'wx' })
    await new Promise<void>((resolve, reject) => {
      const onError = (error: unknown): void => {
        stream.off('open', onOpen)
        reject(
          isDiskFull(error)
            ? diskFullError({
                what: `Saving "${basename(finalPath)}"`,
                folder: dirname(finalPath),
                neededBytes: 0,
                cause: error,
              })
            : exportStorageError(error, finalPath),
        )
      }
      const onOpen = (): void => {
        stream.off('error', onError)
        resolve()
      }
      stream.once('error', onError)
      stream.once('open', onOpen)
    })
    return new AtomicFile(finalPath, tempPath, stream)
  }

  /** The first write error, as a clerk-readable storage error; undefined while all is well. */
  failure(): Error | undefined {
    return this.firstError === undefined ? undefined : this.describe(this.firstError)
  }

  /**
   * Waits for the written data to reach the file, forces it to the disk, then gives it its real name and makes
   * that name durable. Without the fsync a power cut soon after the rename can leave the final name on an empty
   * or partly written file (the rename reaches the disk before the data on some file systems).
   */
  async commit(): Promise<void> {
    if (!this.stream.writableEnded) this.stream.end()
    await this.closedPromise
    const failure = this.failure()
    if (failure !== undefined) throw failure
    try {
      const handle = await open(this.tempPath, 'r+')
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
      await rename(this.tempPath, this.finalPath)
    } catch (error) {
      throw this.describe(error)
    }
    fsyncDirectory(dirname(this.finalPath))
  }

  /** A file-system failure in the clerk's words; a full disk says how much the file had reached, and where. */
  private describe(error: unknown): Error {
    if (!isDiskFull(error)) return exportStorageError(error, this.finalPath)
    return diskFullError({
      what: `Saving "${basename(this.finalPath)}"`,
      folder: dirname(this.finalPath),
      // At least what was written before the disk filled; the rest of the file needs more.
      neededBytes: this.file.bytesWritten + this.queuedAtFailure,
      kept: 'Nothing was saved; choose another drive if this one cannot be cleared.',
      cause: error,
    })
  }

  /** Stops writing and removes the temporary file. Never throws: it runs on paths that already failed. */
  async discard(): Promise<void> {
    if (!this.closed) {
      this.stream.destroy()
      await this.closedPromise
    }
    try {
      await unlink(this.tempPath)
    } catch {
      // Already gone, or the folder vanished with it: either way nothing is left behind by us.
    }
  }
}
