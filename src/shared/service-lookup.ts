/**
 * The rules of "Look up on the service": which columns a service lookup asks the payroll service to search, in
 * what order, and how many matches one answer holds. Zod-free, so main (which runs the lookup) and the renderer's
 * test fakes read the same rules. The spec does not say which columns the service can search (§4.4 gives
 * `searchCol` and `searchVal`, nothing more), so these are RosterDesk's choice; docs/decisions/031-choices-where-the-spec-says-not-shown.md records it.
 */

/** Searched when the clerk has not chosen a column: the two name fields the spec shows, last name first. */
export const SERVICE_NAME_COLUMNS = ['lastName', 'firstName'] as const

/** Text that can only be (the start of) a UUID: eight hex digits and a hyphen, then hex digits and hyphens. */
const UUID_START = /^[0-9a-f]{8}-[0-9a-f-]*$/i

/** One page per column searched: a lookup is for someone the clerk can name, not for browsing the service. */
export const SERVICE_LOOKUP_PAGE_SIZE = 25

/** The order asked for when the table is not sorted: by last name, as a clerk scans a list of people. */
export const SERVICE_LOOKUP_DEFAULT_SORT = { column: 'lastName', order: 'asc' } as const

/**
 * The columns one lookup searches, in the order their matches are listed. The column chosen in "Search in" alone
 * when there is one (the service may refuse it, which the clerk is then told); otherwise the UUID for text that
 * can only be one, else last name and first name. The clerk's text goes to each as `searchVal`, unchanged.
 */
export function serviceLookupColumns(text: string, chosenColumn: string | undefined): string[] {
  if (chosenColumn !== undefined) return [chosenColumn]
  if (UUID_START.test(text.trim())) return ['UUID']
  return [...SERVICE_NAME_COLUMNS]
}
