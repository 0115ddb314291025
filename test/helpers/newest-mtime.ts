import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The newest modification time in `path` (a file, or a folder and everything in it): what a test build compares
 * with its output's to know whether it must build again.
 */
export async function newestMtime(path: string): Promise<number> {
  const info = await stat(path)
  if (!info.isDirectory()) return info.mtimeMs
  let newest = info.mtimeMs
  for (const entry of await readdir(path)) newest = Math.max(newest, await newestMtime(join(path, entry)))
  return newest
}
