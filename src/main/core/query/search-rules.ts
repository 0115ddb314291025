import { foldSearchWord, tokenize } from '../text/text-fold'
import { foldIdentifier, identifierToken, withoutLeadingZeros } from './column-role'
import type { DiscoveredIdentifierRole } from './column-role'

/**
 * What a search word matches, stated row by row. The query engine answers the same questions from its stored
 * index (token-index.ts) without visiting rows; this module is the plain statement of the rules, pure so the
 * renderer's test fake applies exactly them. The default search (no column chosen) matches a row when every
 * word matches one of:
 * - a first- or last-name token by prefix, folded and transliterated (text-fold.ts): "mueller" finds Müller;
 * - the UUID whole or by prefix (see searchesUuid: never a short run of digits, which is an employee number), or
 *   anywhere in it for a pasted part of one ("a6ac-aff973363b74", see isUuidPart);
 * - an identifier column (column-role.ts) whole or by prefix, never by an inner fragment: a number with or
 *   without its leading zeros ("4360" and "0004360" find 0004360; "04360" too, being the same number), an
 *   e-mail address from its start ("anna.k" or the whole address).
 * Rows where some word is a whole identifier (the number, the address, the UUID) come first.
 */

/** A search box can hold many words; beyond this many, extra words add nothing but time. */
export const MAX_SEARCH_WORDS = 16
/** A UUID prefix this long is a UUID to anyone: its whole first group. */
export const UUID_GROUP_PREFIX = 8
/** Shorter prefixes count when they are plainly hexadecimal, down to this many characters (1 row in 65,536). */
export const UUID_MIN_PREFIX = 4
/**
 * "Search in: UUID" also finds a part of a UUID from anywhere in it, from this many characters (a group's worth,
 * one chance in four billion per position of matching a stranger): a clerk copies the middle of an ID out of a
 * log line or an e-mail as often as its start.
 */
export const UUID_MIN_PART = 8

const UUID_PREFIX = /^[0-9a-f][0-9a-f-]*$/
const DIGITS = /^[0-9]+$/

/** One typed word in each form the rules compare. */
export interface SearchWord {
  /** Name-token prefix: folded, punctuation removed, transliterated; '' when the word has no letter or digit. */
  readonly folded: string
  /** Lower case, when the word could start a UUID. */
  readonly uuid: string | null
  /** Folded with its punctuation kept, as identifiers are compared ("Anna.K" → "anna.k"). */
  readonly identifier: string
}

/** Splits the search box into words; words that are only punctuation are dropped. */
export function parseSearchText(text: string | undefined): SearchWord[] {
  if (text === undefined) return []
  const words: SearchWord[] = []
  for (const raw of text.trim().split(/\s+/)) {
    if (raw === '') continue
    const lower = raw.toLowerCase()
    const word = {
      folded: foldSearchWord(raw),
      uuid: UUID_PREFIX.test(lower) ? lower : null,
      identifier: foldIdentifier(raw),
    }
    if (word.folded !== '' || word.uuid !== null) words.push(word)
    if (words.length === MAX_SEARCH_WORDS) break
  }
  return words
}

/**
 * The UUID prefix rule for unrestricted searches: from UUID_GROUP_PREFIX characters, or from UUID_MIN_PREFIX when
 * the word mixes digits and the letters a–f. To a clerk "4360" is an employee number and "cade" a name, yet each
 * starts one UUID in 65,536: at 100,000 employees, "4360" brought up four strangers besides employee 0004360.
 */
export function searchesUuid(word: SearchWord): boolean {
  const uuid = word.uuid
  if (uuid === null || uuid.length < UUID_MIN_PREFIX) return false
  return uuid.length >= UUID_GROUP_PREFIX || (/[0-9]/.test(uuid) && /[a-f]/.test(uuid))
}

/**
 * Whether a word matches an identifier value of `role` (whole or by prefix, never from the middle). A number
 * matches a word of digits that starts it as stored ("00043" starts 0004360) or without its leading zeros
 * ("4360" starts 0004360 and 0043600), or that is the same number ("04360" is 0004360).
 */
export function identifierMatches(word: SearchWord, role: DiscoveredIdentifierRole, value: string): boolean {
  if (role === 'email') return identifierToken(role, value).startsWith(word.identifier)
  if (!DIGITS.test(word.identifier)) return false
  const bare = withoutLeadingZeros(value)
  return value.startsWith(word.identifier) || bare.startsWith(word.identifier) || isSameNumber(word, value)
}

/** Whether a word is the whole identifier (the same number, the same address). */
export function identifierIsExact(word: SearchWord, role: DiscoveredIdentifierRole, value: string): boolean {
  if (role === 'email') return identifierToken(role, value) === word.identifier
  return isSameNumber(word, value)
}

function isSameNumber(word: SearchWord, digits: string): boolean {
  return DIGITS.test(word.identifier) && withoutLeadingZeros(digits) === withoutLeadingZeros(word.identifier)
}

/**
 * The identifier rules as look-ups in an index of tokens (one per value, see identifierToken): rows with a token
 * starting with one of `prefixes` match, rows with a token equal to one of `exacts` match and are the word's
 * whole identifier. A number's zeros are tried up to the most any value of the column has (`maxLeadingZeros`):
 * "4360" looks up 4360, 04360, 004360, … by prefix; its exact forms are the same padded spellings.
 */
export interface IdentifierLookups {
  readonly prefixes: readonly string[]
  readonly exacts: readonly string[]
}

export function identifierLookups(
  role: DiscoveredIdentifierRole,
  word: SearchWord,
  maxLeadingZeros: number,
): IdentifierLookups | null {
  if (role === 'email') return { prefixes: [word.identifier], exacts: [word.identifier] }
  if (!DIGITS.test(word.identifier)) return null
  const bare = withoutLeadingZeros(word.identifier)
  const padded = Array.from({ length: maxLeadingZeros + 1 }, (_, zeros) => '0'.repeat(zeros) + bare)
  // Typed with zeros, a number is read as typed; without, any padding of it starts a match.
  const prefixes = bare === word.identifier ? padded : [word.identifier]
  return { prefixes, exacts: padded }
}

/**
 * Whether a word matches a UUID by prefix: under searchesUuid's rule in the default search, from one character
 * when the clerk narrowed the search to the UUID column; anywhere in it from UUID_MIN_PART characters there, and
 * in the default search for a word that isUuidPart.
 */
export function uuidMatches(word: SearchWord, uuid: string, narrowed = false): boolean {
  if (word.uuid === null || !(narrowed || searchesUuid(word) || isUuidPart(word))) return false
  const key = uuid.toLowerCase()
  return key.startsWith(word.uuid) || (searchesUuidAnywhere(word, narrowed) && key.includes(word.uuid))
}

/**
 * Whether the default search reads a word as a part of a UUID, found anywhere in it: from UUID_MIN_PART
 * characters of hexadecimal digits with a hyphen, holding both a digit and a letter a–f, as a tail pasted from
 * a log line ("a6ac-aff973363b74"). No name, employee number, phone number or date looks like that.
 */
export function isUuidPart(word: SearchWord): boolean {
  const uuid = word.uuid
  return (
    searchesUuidPart(word) && uuid !== null && uuid.includes('-') && /[0-9]/.test(uuid) && /[a-f]/.test(uuid)
  )
}

/** Whether a word is looked for anywhere in the UUID: in "Search in: UUID" (`narrowed`), or as isUuidPart. */
export function searchesUuidAnywhere(word: SearchWord, narrowed: boolean): boolean {
  return narrowed ? searchesUuidPart(word) : isUuidPart(word)
}

/** Whether a word, in "Search in: UUID", is long enough to be looked for anywhere in the UUID (UUID_MIN_PART). */
export function searchesUuidPart(word: SearchWord): boolean {
  return word.uuid !== null && word.uuid.length >= UUID_MIN_PART
}

/** Whether a word is the whole UUID. */
export function uuidIsExact(word: SearchWord, uuid: string): boolean {
  return word.uuid !== null && word.uuid === uuid.toLowerCase()
}

/** Whether a word starts one of the word tokens of a text value (names, or a chosen column's text). */
export function wordsMatch(word: SearchWord, value: unknown): boolean {
  if (word.folded === '' || value === null || value === undefined) return false
  return tokenize(String(value)).some((token) => token.startsWith(word.folded))
}

type Row = Readonly<Record<string, unknown>>
type Identifiers = ReadonlyMap<string, DiscoveredIdentifierRole>

/** The default search's rule for one word and one row; `identifiers` are the cache's identifier columns. */
export function wordMatchesRow(word: SearchWord, row: Row, identifiers: Identifiers): boolean {
  if (wordsMatch(word, row['firstName']) || wordsMatch(word, row['lastName'])) return true
  const uuid = row['UUID']
  if (typeof uuid === 'string' && uuidMatches(word, uuid)) return true
  for (const [key, role] of identifiers) {
    const value = row[key]
    if (typeof value === 'string' && identifierMatches(word, role, value)) return true
  }
  return false
}

/**
 * Whether some word is one of the row's identifiers whole: such rows are listed first. With `column`, only that
 * column counts (when it is the UUID or an identifier column).
 */
export function rowIsExactMatch(
  words: readonly SearchWord[],
  row: Row,
  identifiers: Identifiers,
  column?: string,
): boolean {
  const uuid = row['UUID']
  const searchesUuidColumn = column === undefined || column === 'UUID'
  const columns = [...identifiers].filter(([key]) => column === undefined || key === column)
  return words.some(
    (word) =>
      (searchesUuidColumn && typeof uuid === 'string' && uuidIsExact(word, uuid)) ||
      columns.some(([key, role]) => {
        const value = row[key]
        return typeof value === 'string' && identifierIsExact(word, role, value)
      }),
  )
}

/**
 * "Search in" one column: its word tokens by prefix, and when the column is an identifier, the identifier rule
 * too (so an employee number is found without its zeros there as well); UUIDs by prefix from one character.
 */
export function wordMatchesColumn(
  word: SearchWord,
  column: string,
  value: unknown,
  role: DiscoveredIdentifierRole | undefined,
): boolean {
  if (column === 'UUID') return typeof value === 'string' && uuidMatches(word, value, true)
  if (wordsMatch(word, value)) return true
  return role !== undefined && typeof value === 'string' && identifierMatches(word, role, value)
}
