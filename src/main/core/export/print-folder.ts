/**
 * The name of a print page's private folder in the temporary folder: the shell writes it (print-window.ts), the
 * core's start sweep removes the ones a crash left (session/leftovers.ts). A module of its own, so that Electron's
 * main loads nothing else of the core's for it.
 */

/** The start of every print page's folder. */
export const PRINT_FOLDER_PREFIX = 'rosterdesk-print-'

/**
 * The prefix `mkdtemp` is given for a print page written by process `pid` (the shell's main process): the folder's
 * name says whose it is, so a sweep keeps the page of a RosterDesk still printing.
 */
export function printFolderPrefix(pid: number = process.pid): string {
  return `${PRINT_FOLDER_PREFIX}${pid}-`
}

/** `rosterdesk-print-<pid>-XXXXXX` (mkdtemp's six characters), and `rosterdesk-print-XXXXXX` as versions before the pid. */
export const PRINT_FOLDER_NAME = /^rosterdesk-print-(?:(\d+)-)?[A-Za-z0-9]{6}$/
