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

export interface FieldNameBehaviours {
  /** Every row gains a field of each name in ODD_FIELD_NAMES. */
  oddFieldNames: boolean
  /** Every row gains this many fields (`manyFieldName`), each holding its index as text. */
  manyFields: number | null
}

export const DEFAULT_FIELD_NAME_BEHAVIOURS: FieldNameBehaviours = Object.freeze({
  oddFieldNames: false,
  manyFields: null,
})

export function validateFieldNameBehaviours(b: FieldNameBehaviours): void {
  if (typeof b.oddFieldNames !== 'boolean') throw new RangeError('oddFieldNames must be true or false')
  if (b.manyFields !== null && (!Number.isSafeInteger(b.manyFields) || b.manyFields < 1)) {
    throw new RangeError('manyFields must be a whole number >= 1')
  }
}

/** Whether a page is bent by these behaviours. */
export function addsFields(b: FieldNameBehaviours): boolean {
  return b.oddFieldNames || b.manyFields !== null
}

/**
 * Adds the fields to each row, as own properties (a `__proto__` field is a field, never the prototype): the
 * odd names first, then the many.
 */
export function addFields(rows: ReadonlyArray<Record<string, unknown>>, b: FieldNameBehaviours): void {
  for (const row of rows) {
    const uuid = String(row['UUID'])
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
