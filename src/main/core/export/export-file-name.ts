import type { ExportRequest } from '../../../shared/domain/export'

/** Characters Windows refuses in file names (plus control characters); macOS refuses only `/` and `:`. */
// eslint-disable-next-line no-control-regex
const ILLEGAL = /[<>:"/\\|?*\u0000-\u001F\u007F]/g

function localDate(now: Date): string {
  const pad = (value: number): string => String(value).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/**
 * Text safe inside a file name on Windows and macOS, the one rule for every part a name is made of: illegal
 * characters become '-', no leading dots (a hidden file on macOS) and no trailing dots or spaces (Windows drops them).
 */
export function safeFileNamePart(text: string): string {
  return text
    .replace(ILLEGAL, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[. ]+/, '')
    .replace(/[. ]+$/, '')
    .slice(0, 80)
    .trim()
}

/**
 * Every name the save dialog proposes, for the view, a roster or a sync's changes, starts with the profile's name
 * (the client company: `Acme Ltd – Employees 2026-12-07.xlsx`), so two clients' files never share a name; a
 * profile's name with nothing left after `safeFileNamePart` adds nothing.
 */
export function profileFileName(profileName: string, fileName: string): string {
  const profile = safeFileNamePart(profileName)
  return profile === '' ? fileName : `${profile} – ${fileName}`
}

/**
 * The name the save dialog proposes, naming what the file holds and dated with the clerk's local day: `Roster
 * PC-MONTHLY 2026-11-27.xlsx` for a roster; `Employees – Active, PC-MONTHLY 2026-11-27.xlsx` for a view, after its
 * filters (`viewNameParts`), or `Employees 2026-11-27.xlsx` for the whole list.
 */
export function defaultExportFileName(request: ExportRequest, now: Date): string {
  const date = localDate(now)
  const extension = request.format
  if (request.kind === 'roster') {
    const cycle = safeFileNamePart(request.payCycleId)
    return cycle === '' ? `Roster ${date}.${extension}` : `Roster ${cycle} ${date}.${extension}`
  }
  const filters = safeFileNamePart(viewNameParts(request).join(', '))
  return filters === '' ? `Employees ${date}.${extension}` : `Employees – ${filters} ${date}.${extension}`
}

/** Named one by one up to this many; more are counted ("5 statuses"), so the name stays readable. */
const NAMED_AT_MOST = 3

/**
 * What narrows a view export, as its file name says it: the rows chosen by hand ("3 selected"), the statuses, the
 * pay cycles and the search text, in that order.
 */
function viewNameParts(request: Extract<ExportRequest, { kind: 'view' }>): string[] {
  const listed = (values: readonly string[] | undefined, many: string): string[] => {
    const named = (values ?? []).filter((value) => value.trim() !== '')
    return named.length > NAMED_AT_MOST ? [`${named.length} ${many}`] : named
  }
  const text = request.query.text?.trim() ?? ''
  return [
    ...(request.uuids === undefined ? [] : [`${request.uuids.length} selected`]),
    ...listed(request.query.statuses, 'statuses'),
    ...listed(request.query.payCycleIds, 'pay cycles'),
    ...(text === '' ? [] : [`search ${text}`]),
  ]
}

/**
 * The name the save dialog proposes for "Export changes…": `Changes 2026-11-22 0930.xlsx`, after the local day and
 * time the sync ended, so the changes of two syncs on one day do not propose the same name.
 */
export function changesExportFileName(syncEndedAt: Date, format: ExportRequest['format']): string {
  const pad = (value: number): string => String(value).padStart(2, '0')
  return `Changes ${localDate(syncEndedAt)} ${pad(syncEndedAt.getHours())}${pad(syncEndedAt.getMinutes())}.${format}`
}
