import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fsyncDirectory } from '../durable-fs'
import { OWNER_FILE_MODE } from '../owner-only'

/**
 * A profile's saved employees set aside when the clerk changed the profile's environment, service address or
 * tenant (decision 039): the whole cache folder, renamed beside it, with a note of whose employees they are. Kept
 * until the profile's next complete sync, restorable meanwhile; only one is kept (a second change replaces it).
 */
export interface SetAsideInfo {
  /** Where the employees came from, as the run that filled the cache recorded it. */
  readonly environment?: string
  readonly serviceAddress?: string
  readonly tenantId?: string
  /** When they were set aside (ISO). */
  readonly setAsideAt: string
  readonly employeeCount: number
}

const INFO_FILE = 'set-aside.json'

/** The folder a cache folder's set-aside copy lives in: its sibling `<name>-set-aside`. */
export function setAsideDir(cacheDir: string): string {
  return `${cacheDir}-set-aside`
}

/**
 * Moves `cacheDir` aside (replacing an earlier set-aside copy) with `info` written in it; the caller has closed
 * everything that had the cache open. The next open of `cacheDir` finds it empty.
 */
export function setAsideCache(cacheDir: string, info: SetAsideInfo): void {
  const aside = setAsideDir(cacheDir)
  if (existsSync(aside)) deleteSetAside(cacheDir)
  if (!existsSync(cacheDir)) return
  renameSync(cacheDir, aside)
  writeFileSync(join(aside, INFO_FILE), JSON.stringify(info), { mode: OWNER_FILE_MODE })
  fsyncDirectory(aside)
  fsyncDirectory(dirname(cacheDir))
}

/** The set-aside copy's note, or undefined when there is none (or its note cannot be read). */
export function readSetAside(cacheDir: string): SetAsideInfo | undefined {
  const path = join(setAsideDir(cacheDir), INFO_FILE)
  // Most profiles have none: asked on every profile list, so checked without throwing.
  if (!existsSync(path)) return undefined
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'))
    if (typeof value !== 'object' || value === null) return undefined
    const record = value as Record<string, unknown>
    const text = (key: string): string | undefined =>
      typeof record[key] === 'string' ? record[key] : undefined
    const setAsideAt = text('setAsideAt')
    const count = record['employeeCount']
    if (setAsideAt === undefined || typeof count !== 'number' || !Number.isInteger(count)) return undefined
    const environment = text('environment')
    const serviceAddress = text('serviceAddress')
    const tenantId = text('tenantId')
    return {
      setAsideAt,
      employeeCount: count,
      ...(environment === undefined ? {} : { environment }),
      ...(serviceAddress === undefined ? {} : { serviceAddress }),
      ...(tenantId === undefined ? {} : { tenantId }),
    }
  } catch {
    return undefined
  }
}

/**
 * Puts the set-aside copy back as the cache, dropping what the cache holds now (no complete sync from the new
 * source, or the copy would have been deleted). The caller has closed the cache. False when there is none.
 */
export function restoreSetAside(cacheDir: string): boolean {
  const aside = setAsideDir(cacheDir)
  if (readSetAside(cacheDir) === undefined) return false
  rmSync(cacheDir, { recursive: true, force: true })
  rmSync(join(aside, INFO_FILE), { force: true })
  renameSync(aside, cacheDir)
  fsyncDirectory(dirname(cacheDir))
  return true
}

/** Deletes the set-aside copy for good, its removal made durable (the parent folder synced); none is fine. */
export function deleteSetAside(cacheDir: string): void {
  const aside = setAsideDir(cacheDir)
  if (!existsSync(aside)) return
  rmSync(aside, { recursive: true, force: true })
  fsyncDirectory(dirname(cacheDir))
}
