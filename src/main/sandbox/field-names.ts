import { hash32 } from './random'

/**
 * Fields a service adds under names a clerk never chose (issue 32, point 7): names with spaces, slashes, quotes
 * and brackets, names that read as formulas, names an object would answer from its prototype, a NUL, a lone
 * surrogate half, a very long name; or thousands of fields. Column names are data: each must be exportable by
 * its name. Both are off by default and served on every list page (not cached) while on.
 */

/** Every row gains a field of each of these names (the value `ODD_FIELD_VALUE(index, UUID)`). */
export const ODD_FIELD_NAMES: readonly string[] = [
  'Cost Center',
  'Job Title/Grade',
  '=HYPERLINK("http://evil.example","click")',
  '+1',
  '@SUM(1+1)',
  '-2',
  '__proto__',
  'constructor',
  'toString',
  'say "hi"',
  "it's",
  '[bracket]',
  'dot.ted',
  '$.path',
  'Comma, Inc.',
  '<b>bold</b> & co',
  'tab\there',
  'NUL\u0000name',
  'half \ud800 pair',
  '  spaced  ',
  `long${'n'.repeat(5000)}`,
]

/** The value an odd-named field holds in a row: its index among ODD_FIELD_NAMES and the row's UUID. */
export function oddFieldValue(index: number, uuid: string): string {
  return `odd ${index} ${uuid}`
}

/** The name of the `index`th (0-based) of the many fields: `field00001`, … (sorts in serving order). */
export function manyFieldName(index: number): string {
  return `field${String(index + 1).padStart(5, '0')}`
}

/** The bank-account field a service may add (issue 34, point 2: a sensitive field by its name). */
export const IBAN_FIELD = 'iban'

/**
 * The IBAN a row's `iban` field holds: a German one (DE, two check digits, 18 digits) whose digits come from the
 * row's UUID and whose check digits are right (ISO 13616, mod 97), so it reads as a real one.
 */
export function ibanOf(uuid: string): string {
  let seed = 0
  for (let index = 0; index < uuid.length; index++) seed = hash32(seed, uuid.charCodeAt(index), index)
  let digits = ''
  for (let index = 0; digits.length < 18; index++) digits += String(hash32(seed, 34, index) % 10)
  // D = 13, E = 14; check digits 00 while computing.
  const check = 98n - (BigInt(`${digits}131400`) % 97n)
  return `DE${String(check).padStart(2, '0')}${digits}`
}

export interface FieldNameBehaviours {
  /** Every row gains a field of each name in ODD_FIELD_NAMES. */
  oddFieldNames: boolean
  /** Every row gains IBAN_FIELD, its `ibanOf` the row's UUID. */
  ibanField: boolean
  /** Every row gains this many fields (`manyFieldName`), each holding its index as text. */
  manyFields: number | null
}

export const DEFAULT_FIELD_NAME_BEHAVIOURS: FieldNameBehaviours = Object.freeze({
  oddFieldNames: false,
  ibanField: false,
  manyFields: null,
})

export function validateFieldNameBehaviours(b: FieldNameBehaviours): void {
  if (typeof b.oddFieldNames !== 'boolean') throw new RangeError('oddFieldNames must be true or false')
  if (typeof b.ibanField !== 'boolean') throw new RangeError('ibanField must be true or false')
  if (b.manyFields !== null && (!Number.isSafeInteger(b.manyFields) || b.manyFields < 1)) {
    throw new RangeError('manyFields must be a whole number >= 1')
  }
}

/** Whether a page is bent by these behaviours. */
export function addsFields(b: FieldNameBehaviours): boolean {
  return b.oddFieldNames || b.ibanField || b.manyFields !== null
}

/**
 * Adds the fields to each row, as own properties (a `__proto__` field is a field, never the prototype): the
 * IBAN, the odd names, then the many.
 */
export function addFields(rows: ReadonlyArray<Record<string, unknown>>, b: FieldNameBehaviours): void {
  for (const row of rows) {
    const uuid = String(row['UUID'])
    if (b.ibanField) row[IBAN_FIELD] = ibanOf(uuid)
    if (b.oddFieldNames) {
      ODD_FIELD_NAMES.forEach((name, index) => {
        Object.defineProperty(row, name, {
          value: oddFieldValue(index, uuid),
          enumerable: true,
          writable: true,
          configurable: true,
        })
      })
    }
    for (let index = 0; index < (b.manyFields ?? 0); index++) row[manyFieldName(index)] = String(index)
  }
}
