/**
 * The rules of "Look up on the service": which columns a service lookup asks the payroll service to search, in
 * what order, and how many matches one answer holds. Zod-free, so main (which runs the lookup) and the renderer's
 * test fakes read the same rules. The spec does not say which columns the service can search (§4.4 gives
 * `searchCol` and `searchVal`, nothing more), so these are RosterDesk's choice; docs/service-contract.md records it.
 */

import { employeeNumberColumn } from './change-rules'

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

/** One page of the employees with a last name, read for a first name (serviceLookupNames): more than a name page. */
export const SERVICE_LOOKUP_NAME_PAGE_SIZE = 100

/** Words beyond this many are not split into a last and a first name (each split is one more request). */
const MAX_NAME_WORDS = 4

/** One way of reading a full name typed: these words as the last name, the rest as the first name. */
export interface NameReading {
  readonly lastName: string
  readonly firstName: string
}

/**
 * The ways a full name typed in the default search is read as a last name and a first name, both orders: the
 * service searches one column at a time (`searchCol`), so "Ricci Giuseppe" is in neither name column whole. Each
 * split of two to MAX_NAME_WORDS words, the last name first ("Ricci" + "Giuseppe") and last ("Giuseppe" + "Ricci");
 * none for one word, a chosen column, or a UUID.
 */
export function serviceLookupNames(text: string, chosenColumn: string | undefined): NameReading[] {
  if (chosenColumn !== undefined || serviceLookupColumns(text, undefined)[0] === 'UUID') return []
  const words = text.trim().split(/\s+/)
  if (words.length < 2 || words.length > MAX_NAME_WORDS) return []
  const readings: NameReading[] = []
  for (let at = 1; at < words.length; at++) {
    const head = words.slice(0, at).join(' ')
    const tail = words.slice(at).join(' ')
    readings.push({ lastName: head, firstName: tail }, { lastName: tail, firstName: head })
  }
  return readings.filter(
    (reading, i) =>
      readings.findIndex(
        (other) => other.lastName === reading.lastName && other.firstName === reading.firstName,
      ) === i,
  )
}

/** Lower case without accents, as a clerk reads "José" and "jose" alike. */
function plain(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Whether a first name holds each word of `wanted` (any case and accents), as the service matches a column. */
export function firstNameMatches(value: unknown, wanted: string): boolean {
  if (typeof value !== 'string') return false
  const have = plain(value)
  return plain(wanted)
    .split(/\s+/)
    .every((word) => have.includes(word))
}

/** Text of digits alone: to a clerk an employee number, as the saved employees' search reads it (search-rules.ts). */
const DIGITS = /^[0-9]+$/

/**
 * The column a lookup names in its request (`column`): the one chosen in "Search in"; else, for text of digits
 * alone ("0004360"), the data's employee-number column (employeeNumberColumn: its first identifier column of
 * numbers), so a number is looked up as a number rather than in the names; else none, and serviceLookupColumns
 * searches the names, or the UUID for text that can only be one. `columns` are the saved data's
 * (`employees:columns`), which say which column holds employee numbers.
 */
export function serviceLookupColumn(
  text: string,
  chosenColumn: string | undefined,
  columns: ReadonlyArray<{ readonly key: string; readonly identifier?: string }>,
): string | undefined {
  if (chosenColumn !== undefined) return chosenColumn
  if (!DIGITS.test(text.trim())) return undefined
  return employeeNumberColumn(
    columns.flatMap((column) =>
      column.identifier === undefined ? [] : [{ key: column.key, role: column.identifier }],
    ),
  )
}
