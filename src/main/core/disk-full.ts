import { statfsSync } from 'node:fs'
import { RosterDeskError } from './errors'

/**
 * One typed error for a full disk, whichever layer noticed it: Node's ENOSPC/EDQUOT (export files, settings,
 * secrets, token files) and SQLite's SQLITE_FULL (the cache). The clerk is told how much space is needed and
 * where, because "free some space" is only actionable with a size and a folder.
 */

const DISK_FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT'])

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  const code = (error as { code: unknown }).code
  return typeof code === 'string' ? code : undefined
}

/** True when the error, or any error in its cause chain, says the disk (or the user's quota) is full. */
export function isDiskFull(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (current instanceof RosterDeskError && current.code === 'disk-full') return true
    const code = codeOf(current)
    if (code !== undefined && (DISK_FULL_ERRNO.has(code) || code.startsWith('SQLITE_FULL'))) return true
    current = current instanceof Error ? current.cause : undefined
  }
  return false
}

/** Bytes a non-root user may still write in `folder`, or undefined when the OS will not say. */
export function freeBytes(folder: string): number | undefined {
  try {
    const stats = statfsSync(folder)
    return stats.bavail * stats.bsize
  } catch {
    return undefined
  }
}

/** "1.4 MB", "820 KB", "3 bytes": rounded up, because a clerk frees space against this figure. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.max(0, Math.ceil(bytes))} bytes`
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`
  if (bytes < 1024 * 1024 * 1024) return `${(Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1)} MB`
  return `${(Math.ceil((bytes / (1024 * 1024 * 1024)) * 10) / 10).toFixed(1)} GB`
}

export interface DiskFullContext {
  /** What could not be saved, as the start of a sentence: "Saving the synced employees", "Saving "x.csv"". */
  readonly what: string
  /** The folder that needs the space. */
  readonly folder: string
  /** The space the work needs there (an estimate; said as "about"). */
  readonly neededBytes: number
  /** What was kept, said after the advice: "The previous employees are kept." */
  readonly kept?: string
  readonly cause?: unknown
}

/** The clerk-facing error for a full disk: what failed, how much space is needed and where, and what was kept. */
export function diskFullError(context: DiskFullContext): RosterDeskError {
  const free = freeBytes(context.folder)
  const needed = Math.max(context.neededBytes, 4096)
  const kept = context.kept === undefined ? '' : ` ${context.kept}`
  return new RosterDeskError(
    'disk-full',
    `The disk is full. ${context.what} needs about ${formatBytes(needed)} free in ${context.folder}. ` +
      `Free some space there and try again.${kept}`,
    {
      detail: `${codeOf(context.cause) ?? 'disk full'}: needed ~${needed} bytes in ${context.folder}, free ${
        free === undefined ? 'unknown' : String(free)
      }`,
      ...(context.cause === undefined ? {} : { cause: context.cause }),
    },
  )
}
