import type { ColumnIdentifier } from '../../../shared/domain/rows'
import { foldText } from '../text/text-fold'

/**
 * Which columns the default search box treats as identifiers: values a clerk types whole or from the start, such
 * as an employee number or an e-mail address, and never by a fragment from the middle.
 *
 * The spec shows four fields (UUID, first and last name, status) and says the rest are "not shown", so a column
 * is judged by its values rather than by its name: a service calling it `staffNo` or `workEmail` gets the same
 * treatment as the sandbox's `employeeNumber` and `email`. A discovered column is an identifier when
 * - every value it holds is a string of one shape: all digits (`number`) or an e-mail address (`email`); a value
 *   of another shape or type anywhere in the column rules it out, and
 * - its values tell employees apart: at least IDENTIFIER_MIN_DISTINCT_SHARE of the rows holding a value hold
 *   distinct ones (a grade or floor number written in digits repeats, and would flood the results).
 * Numbers sent as JSON numbers are quantities (salary, hours) and never identifiers: an identifier that can
 * start with a zero is text. UUID is the one known field with an identifier role; names are words.
 *
 * This module is pure (no Node, no storage) so the renderer's test fake decides with the same rules.
 */

export type IdentifierRole = ColumnIdentifier
/** The roles a discovered column can take. */
export type DiscoveredIdentifierRole = Exclude<IdentifierRole, 'uuid'>

/** The known fields' roles: only UUID is an identifier; the names and status are searched as words or not at all. */
const KNOWN_ROLES: Readonly<Record<string, IdentifierRole | null>> = {
  UUID: 'uuid',
  firstName: null,
  lastName: null,
  employeeStatus: null,
}

/** Share of distinct values among the rows with a value, from which a column tells employees apart. */
export const IDENTIFIER_MIN_DISTINCT_SHARE = 0.9

/** Up to 32 digits: employee and payroll numbers, not arbitrary digit blobs. */
const NUMBER_SHAPE = /^[0-9]{1,32}$/
/** local@domain.tld with no spaces, as generous as addresses in the wild; 254 is the longest valid address. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const EMAIL_MAX_LENGTH = 254

/** What a value says about its column: its identifier shape, 'absent' (null, missing, blank) or null (neither). */
export function identifierShape(value: unknown): DiscoveredIdentifierRole | 'absent' | null {
  if (value === null || value === undefined || value === '') return 'absent'
  if (typeof value !== 'string') return null
  if (NUMBER_SHAPE.test(value)) return 'number'
  if (value.length <= EMAIL_MAX_LENGTH && EMAIL_SHAPE.test(value)) return 'email'
  return null
}

/**
 * identifierShape's answer for a column already of `shape`: whether `value` keeps it ('absent' for no value).
 * One test instead of both, for the value of every candidate column of every row a sync stores; a string cannot
 * be both all digits and an address, so the answer is the same.
 */
export function fitsIdentifierShape(shape: DiscoveredIdentifierRole, value: unknown): boolean | 'absent' {
  if (value === null || value === undefined || value === '') return 'absent'
  if (typeof value !== 'string') return false
  if (shape === 'number') return NUMBER_SHAPE.test(value)
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_SHAPE.test(value)
}

/** Whether a field is known to the spec (and so has a fixed role rather than one learnt from its values). */
export function hasFixedRole(key: string): boolean {
  return Object.hasOwn(KNOWN_ROLES, key)
}

/** The fixed role of a known field, or null. */
export function knownRole(key: string): IdentifierRole | null {
  return Object.hasOwn(KNOWN_ROLES, key) ? (KNOWN_ROLES[key] ?? null) : null
}

/** What was measured about one discovered column over every row: the shape all its values share, and counts. */
export interface IdentifierProfile {
  readonly shape: DiscoveredIdentifierRole
  /** Rows holding a value. */
  readonly present: number
  /** Distinct values among them. */
  readonly distinct: number
}

/** The one decision: is a column whose every value has `profile.shape` an identifier? */
export function identifierRole(profile: IdentifierProfile): DiscoveredIdentifierRole | null {
  if (profile.present === 0) return null
  return profile.distinct >= profile.present * IDENTIFIER_MIN_DISTINCT_SHARE ? profile.shape : null
}

/**
 * The roles of the discovered columns of some rows, measured the simple way (every value held at once). The
 * sync measures the same profile incrementally (index-encoder.ts); fakes and tests call this.
 */
export function identifierColumnsOf(
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
): Map<string, DiscoveredIdentifierRole> {
  const shapes = new Map<string, DiscoveredIdentifierRole | null>()
  const values = new Map<string, Set<string>>()
  const present = new Map<string, number>()
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (hasFixedRole(key) || shapes.get(key) === null) continue
      const value = row[key]
      const shape = identifierShape(value)
      if (shape === 'absent') continue
      const seen = shapes.get(key)
      if (shape === null || (seen !== undefined && seen !== shape)) {
        shapes.set(key, null)
        continue
      }
      shapes.set(key, shape)
      present.set(key, (present.get(key) ?? 0) + 1)
      const set = values.get(key) ?? new Set<string>()
      set.add(String(value))
      values.set(key, set)
    }
  }
  const roles = new Map<string, DiscoveredIdentifierRole>()
  for (const [key, shape] of shapes) {
    if (shape === null) continue
    const role = identifierRole({
      shape,
      present: present.get(key) ?? 0,
      distinct: values.get(key)?.size ?? 0,
    })
    if (role !== null) roles.set(key, role)
  }
  return roles
}

const ZERO = 0x30

function isDigit(unit: number): boolean {
  return unit >= ZERO && unit <= 0x39
}

/** A digit string without its leading zeros ("0004360" → "4360"); zero itself stays "0". */
export function withoutLeadingZeros(digits: string): string {
  return digits.slice(leadingZeros(digits))
}

/**
 * How many leading zeros a digit string has before its last digit ("0004360" → 3, "000" → 2): the zeros that
 * are followed by a digit. A loop rather than a pattern: a sync asks it of every employee number it stores.
 */
export function leadingZeros(digits: string): number {
  let zeros = 0
  while (digits.charCodeAt(zeros) === ZERO && isDigit(digits.charCodeAt(zeros + 1))) zeros++
  return zeros
}

/** An identifier's text as searched: case and accents folded, punctuation kept ("Anna.K@x" → "anna.k@x"). */
export function foldIdentifier(text: string): string {
  return foldText(text)
}

/**
 * The token an identifier value is indexed under, matched whole or by prefix: a number as stored (its zeros are
 * dealt with when looking up, see search-rules.ts), an e-mail address whole, folded.
 */
export function identifierToken(role: DiscoveredIdentifierRole, value: string): string {
  return role === 'email' ? foldIdentifier(value) : value
}
