/**
 * The one label a field gets everywhere: the table's header, the detail panel, the column chooser and the
 * exported spreadsheet. The four fields the spec shows and the extras the demo service sends get hand-written
 * labels; any other field the cache discovered is split from its camelCase name, so a clerk never sees
 * `payCycleId`. A Map, since the keys are the service's field names: a plain object would answer `constructor`
 * or `toString` from its prototype.
 */
const KNOWN_LABELS: ReadonlyMap<string, string> = new Map([
  ['UUID', 'UUID'],
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['employeeStatus', 'Status'],
  ['employeeNumber', 'Employee number'],
  ['email', 'Email'],
  ['department', 'Department'],
  ['jobTitle', 'Job title'],
  ['hireDate', 'Hire date'],
  ['annualSalary', 'Annual salary'],
  ['payCycleId', 'Pay cycle'],
  ['costCentre', 'Cost centre'],
  ['managerUUID', 'Manager UUID'],
])

/** Words that are initialisms even when a field spells them in mixed case (`employeeId` → "Employee ID"). */
const INITIALISMS: ReadonlySet<string> = new Set([
  'id',
  'uuid',
  'url',
  'iban',
  'bic',
  'ssn',
  'nin',
  'tin',
  'vat',
])

/** A field name of the shape programs give fields (`hireDate`, `cost_centre`, `hr.grade`), split into words. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.-]*$/

/**
 * A readable column header for a field name: `hireDate` → "Hire date", `managerUUID` → "Manager UUID". A name
 * of any other shape (`Cost Center`, `Job Title/Grade`, `=HYPERLINK(…)`) was written for people and is its own
 * label, exactly: a clerk finds the column by the name the service gave it.
 */
export function columnLabel(key: string): string {
  const known = KNOWN_LABELS.get(key)
  if (known !== undefined) return known
  if (!IDENTIFIER.test(key)) return key
  const words = key
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .split(' ')
    .filter((word) => word !== '')
  if (words.length === 0) return key
  return words
    .map((word, index) => {
      const lower = word.toLowerCase()
      if (INITIALISMS.has(lower)) return lower.toUpperCase()
      // An all-capitals word of two or more letters is an acronym the service chose (e.g. "HR").
      if (word.length > 1 && word === word.toUpperCase() && /[A-Z]/.test(word)) return word
      return index === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower
    })
    .join(' ')
}
