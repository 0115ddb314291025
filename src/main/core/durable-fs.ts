import { closeSync, fsyncSync, openSync } from 'node:fs'
import { open } from 'node:fs/promises'

// Durable writes' last steps, for every file RosterDesk replaces (snapshots, exports, secrets). A module of
// their own, so that what needs only these (the secret store in Electron's main) loads no SQLite with them.

/**
 * Flushes a file's data to the disk. Done before the catalog names a new snapshot, so a power cut can never
 * leave the catalog pointing at a file whose pages were still in the OS cache.
 */
export function fsyncFile(path: string): void {
  const fd = openSync(path, 'r+')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** `fsyncFile` on libuv's thread pool, so the event loop (the Electron main process) is not held meanwhile. */
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
