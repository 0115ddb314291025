import { FIRST_PROFILE_ID } from '../../../shared/settings-rules'
/**
 * The first release (one environment, no views) kept the shown columns in the window's localStorage under this
 * key, as a list of column keys. Layouts live in main's current view now; an upgraded install's list is read once
 * into the view of profile 1, the profile that owns what a single-environment release stored, and forgotten when that view holds a layout.
 */
const LEGACY_STORAGE_KEY = 'rosterdesk.visibleColumns'

/** The first release's list of shown column keys, when `profileId` is the profile it belongs to and one is kept. */
export function readLegacyColumns(profileId: string): string[] | undefined {
  if (profileId !== FIRST_PROFILE_ID) return undefined
  try {
    const raw = window.localStorage.getItem(LEGACY_STORAGE_KEY)
    const parsed: unknown = raw === null ? undefined : JSON.parse(raw)
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every((key) => typeof key === 'string')
      ? parsed
      : undefined
  } catch {
    // Unavailable storage or a damaged value: there is nothing to carry over.
    return undefined
  }
}

export function forgetLegacyColumns(): void {
  try {
    window.localStorage.removeItem(LEGACY_STORAGE_KEY)
  } catch {
    // Unavailable storage holds nothing to forget.
  }
}
