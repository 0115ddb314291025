import { basename, dirname } from 'node:path'
import { RosterDeskError } from '../errors'

function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  const code = (error as { code: unknown }).code
  return typeof code === 'string' ? code : undefined
}

/**
 * A file-system failure while saving an export, worded for a clerk: which file or folder, what went wrong and
 * what to do. The original error stays as `cause` and its code in `detail` for the log.
 */
export function exportStorageError(error: unknown, filePath: string): RosterDeskError {
  const code = errnoCode(error)
  const folder = dirname(filePath)
  const name = basename(filePath)
  const options = { cause: error, detail: code ?? (error instanceof Error ? error.message : String(error)) }
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new RosterDeskError(
        'storage',
        `The folder ${folder} does not exist (any more). Choose another folder and export again.`,
        options,
      )
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new RosterDeskError(
        'storage',
        `RosterDesk may not save "${name}" in ${folder}. If the file is open in Excel, close it; otherwise choose a folder you can save to, such as Documents.`,
        options,
      )
    case 'EBUSY':
    case 'ETXTBSY':
      return new RosterDeskError(
        'storage',
        `"${name}" is in use by another program, probably Excel. Close it there and export again.`,
        options,
      )
    case 'ENOSPC':
    case 'EDQUOT':
      return new RosterDeskError(
        'storage',
        `There is not enough free space in ${folder} to save "${name}". Free some space or choose another drive.`,
        options,
      )
    case 'EISDIR':
      return new RosterDeskError(
        'storage',
        `"${name}" in ${folder} is a folder, not a file. Choose another file name.`,
        options,
      )
    case 'ENAMETOOLONG':
      return new RosterDeskError(
        'storage',
        `The file name or folder path is too long. Choose a shorter one.`,
        options,
      )
    default:
      return new RosterDeskError(
        'storage',
        `RosterDesk could not save "${name}" in ${folder}. Check that the folder is available and try again.`,
        options,
      )
  }
}
