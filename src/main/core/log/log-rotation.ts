import { renameSync, rmSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'

/** The n-th older copy of a log file: main.log → main.1.log, main.2.log, … (n = 0 is the live file). */
export function rotatedLogPath(filePath: string, n: number): string {
  if (n === 0) return filePath
  const extension = extname(filePath)
  return join(dirname(filePath), `${basename(filePath, extension)}.${n}${extension}`)
}

export type RotationStep =
  | { readonly kind: 'remove'; readonly path: string }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string }

/**
 * The steps that turn main.log into main.1.log, keeping `keep` older copies: drop the oldest, then move each copy
 * one place older, oldest first so no step overwrites a copy still to move.
 */
export function planLogRotation(filePath: string, keep: number): RotationStep[] {
  if (!Number.isInteger(keep) || keep < 1) throw new RangeError('keep must be a whole number of at least 1')
  const steps: RotationStep[] = [{ kind: 'remove', path: rotatedLogPath(filePath, keep) }]
  for (let n = keep - 1; n >= 0; n--) {
    steps.push({ kind: 'rename', from: rotatedLogPath(filePath, n), to: rotatedLogPath(filePath, n + 1) })
  }
  return steps
}

/**
 * Runs planLogRotation on disk. A copy that does not exist yet is skipped; any other failure (a file held open
 * by another program on Windows) is thrown, and the caller decides how to keep the size limit.
 */
export function rotateLogFiles(filePath: string, keep: number): void {
  for (const step of planLogRotation(filePath, keep)) {
    try {
      if (step.kind === 'remove') rmSync(step.path, { force: true })
      else renameSync(step.from, step.to)
    } catch (error) {
      if (!isNotFound(error)) throw error
    }
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT'
}
