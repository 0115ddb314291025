import type { ExportRequest } from '../../../shared/domain'

/** Characters Windows refuses in file names (plus control characters); macOS refuses only `/` and `:`. */
// eslint-disable-next-line no-control-regex
const ILLEGAL = /[<>:"/\\|?*\u0000-\u001F\u007F]/g

function localDate(now: Date): string {
  const pad = (value: number): string => String(value).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** Text safe inside a file name on Windows and macOS: illegal characters become '-', no trailing dots or spaces. */
export function safeFileNamePart(text: string): string {
  return text
    .replace(ILLEGAL, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[. ]+$/, '')
    .slice(0, 80)
}

/**
 * The name the save dialog proposes: `Roster PC-2026-11-A 2026-11-22.xlsx` for a roster, `Employees
 * 2026-11-22.xlsx` for the list view, dated with the clerk's local day.
 */
export function defaultExportFileName(request: ExportRequest, now: Date): string {
  const date = localDate(now)
  const extension = request.format
  if (request.kind === 'roster') {
    const cycle = safeFileNamePart(request.payCycleId)
    return cycle === '' ? `Roster ${date}.${extension}` : `Roster ${cycle} ${date}.${extension}`
  }
  return `Employees ${date}.${extension}`
}

/**
 * The name the save dialog proposes for "Export changes…": `Changes 2026-11-22 0930.xlsx`, after the local day and
 * time the sync ended, so the changes of two syncs on one day do not propose the same name.
 */
export function changesExportFileName(syncEndedAt: Date, format: ExportRequest['format']): string {
  const pad = (value: number): string => String(value).padStart(2, '0')
  return `Changes ${localDate(syncEndedAt)} ${pad(syncEndedAt.getHours())}${pad(syncEndedAt.getMinutes())}.${format}`
}
