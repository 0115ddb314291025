import { createWriteStream } from 'node:fs'
import type { WriteStream } from 'node:fs'
import { rename, unlink } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import { exportStorageError } from './export-storage-error'

/**
 * A file that appears under its real name only when it is complete. It is written to a hidden temporary name in
 * the same folder (so the final rename cannot cross drives) and renamed at the end; a cancelled or failed export
 * removes the temporary file, so the clerk never finds half a spreadsheet, and an existing file of the same
 * name survives until the new one is ready.
 */
export class AtomicFile {
  private firstError: unknown = undefined
  private closed = false
  private readonly closedPromise: Promise<void>

  private constructor(
    readonly finalPath: string,
    readonly tempPath: string,
    readonly stream: WriteStream,
  ) {
    stream.on('error', (error: unknown) => {
      if (this.firstError === undefined) this.firstError = error
    })
    this.closedPromise = new Promise((resolve) => {
      stream.once('close', () => {
        this.closed = true
        resolve()
      })
    })
  }

  /** The temporary name for `finalPath`: hidden on macOS and Linux, recognisable, unique per attempt. */
  static tempPathFor(finalPath: string): string {
    return join(dirname(finalPath), `.${basename(finalPath)}.${randomBytes(4).toString('hex')}.part`)
  }

  /** Creates the temporary file; a folder that is missing or read-only fails here with a storage error. */
  static async create(finalPath: string): Promise<AtomicFile> {
    const tempPath = AtomicFile.tempPathFor(finalPath)
    const stream = createWriteStream(tempPath, { flags: 'wx' })
    await new Promise<void>((resolve, reject) => {
      const onError = (error: unknown): void => {
        stream.off('open', onOpen)
        reject(exportStorageError(error, finalPath))
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
    return this.firstError === undefined ? undefined : exportStorageError(this.firstError, this.finalPath)
  }

  /** Waits for the written data to reach the file, then gives it its real name. */
  async commit(): Promise<void> {
    if (!this.stream.writableEnded) this.stream.end()
    await this.closedPromise
    const failure = this.failure()
    if (failure !== undefined) throw failure
    try {
      await rename(this.tempPath, this.finalPath)
    } catch (error) {
      throw exportStorageError(error, this.finalPath)
    }
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
