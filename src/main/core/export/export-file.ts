import { createWriteStream } from 'node:fs'
import type { WriteStream } from 'node:fs'
import { basename, dirname } from 'node:path'
import { diskFullError, isDiskFull } from '../disk-full'
import { PartFile } from '../durable-fs'
import { OWNER_FILE_MODE } from '../owner-only'
import { BatchedWritable } from './batched-writable'
import { exportStorageError } from './export-storage-error'

/**
 * An export's file, streamed into a PartFile (durable-fs.ts) and published under its real name only when it is
 * complete: a cancelled or failed export discards the part file, so the clerk never finds half a spreadsheet,
 * and an existing file of the same name survives until the new one is ready. Its failures are worded for the
 * clerk (export-storage-error.ts, a full disk with how much the file had reached).
 */
export class ExportFile {
  private firstError: unknown = undefined
  /** Bytes queued for the file, and held by the batches, when it failed (read before the failure drops them). */
  private queuedAtFailure = 0
  private closed = false
  private readonly closedPromise: Promise<void>
  /** Where the writers write: the file's stream, gathered into batches (batched-writable.ts). */
  readonly stream: BatchedWritable

  private constructor(
    private readonly part: PartFile,
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
   * Creates the part file, 0600 (owner-only.ts: the clerk shares the file they choose to share, not every file
   * they wrote), in the clerk's folder, which is not changed; a folder that is missing or read-only fails here
   * with a storage error.
   */
  static async create(finalPath: string): Promise<ExportFile> {
    const part = PartFile.beside(finalPath)
    const stream = createWriteStream(part.path, { flags: 'wx', mode: OWNER_FILE_MODE })
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
    return new ExportFile(part, stream)
  }

  /** The first write error, as a clerk-readable storage error; undefined while all is well. */
  failure(): Error | undefined {
    return this.firstError === undefined ? undefined : this.describe(this.firstError)
  }

  /** Waits for the written data to reach the file, then publishes it under its real name (PartFile.publish). */
  async commit(): Promise<void> {
    if (!this.stream.writableEnded) this.stream.end()
    await this.closedPromise
    const failure = this.failure()
    if (failure !== undefined) throw failure
    try {
      await this.part.publish()
    } catch (error) {
      throw this.describe(error)
    }
  }

  /** A file-system failure in the clerk's words; a full disk says how much the file had reached, and where. */
  private describe(error: unknown): Error {
    const finalPath = this.part.finalPath
    if (!isDiskFull(error)) return exportStorageError(error, finalPath)
    return diskFullError({
      what: `Saving "${basename(finalPath)}"`,
      folder: dirname(finalPath),
      // At least what was written before the disk filled; the rest of the file needs more.
      neededBytes: this.file.bytesWritten + this.queuedAtFailure,
      kept: 'Nothing was saved; choose another drive if this one cannot be cleared.',
      cause: error,
    })
  }

  /** Stops writing and removes the part file. Never throws: it runs on paths that already failed. */
  async discard(): Promise<void> {
    if (!this.closed) {
      this.stream.destroy()
      await this.closedPromise
    }
    await this.part.discard()
  }
}
