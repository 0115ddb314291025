import { existsSync, renameSync } from 'node:fs'
import { basename } from 'node:path'

/**
 * Opens a JSON-backed store, and if its file cannot be parsed (a crash mid-write, an edit by hand), moves the
 * file aside and opens a fresh one rather than leaving the app unable to start. Nothing is deleted: the clerk
 * or support can still read the old file. Other errors (permissions, a full disk) are not guessed at.
 */
export function openRecoveringUnreadable<T>(
  path: string,
  open: () => T,
  log: (message: string) => void,
  now: () => number = Date.now,
): T {
  try {
    return open()
  } catch (error) {
    const unparsable =
      error instanceof SyntaxError || (error instanceof Error && error.name === 'SyntaxError')
    if (!unparsable || !existsSync(path)) throw error
    const aside = `${path}.unreadable-${now()}`
    renameSync(path, aside)
    log(`${basename(path)} could not be read; kept it as ${basename(aside)} and started from the defaults`)
    return open()
  }
}
