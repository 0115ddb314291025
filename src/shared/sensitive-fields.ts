/**
 * Which employee fields are *sensitive* (issue 34): pay, bank details, national and tax identifiers and birth
 * dates. One list for every place that asks (the export record, masking, what exports may carry), by the known
 * fields and by the names of fields a service adds: a name is compared without case, spaces, dashes or
 * underscores, and is sensitive when it contains one of `CONTAINS` or is one of `EXACTLY` (short words that would
 * match inside harmless names: "tin" in "setting", "dob" in "adobe").
 */
const CONTAINS = [
  'salary',
  'wage',
  'compensation',
  'bonus',
  'payrate',
  'hourlyrate',
  'grosspay',
  'netpay',
  'iban',
  'bankaccount',
  'accountnumber',
  'sortcode',
  'routingnumber',
  'swift',
  'ssn',
  'socialsecurity',
  'taxid',
  'taxnumber',
  'taxcode',
  'nationalid',
  'nationalinsurance',
  'passport',
  'birthdate',
  'dateofbirth',
] as const
const EXACTLY = ['tin', 'dob', 'nino', 'bic', 'sin', 'pay'] as const

function normalized(field: string): string {
  return field.toLowerCase().replace(/[\s_.-]+/g, '')
}

/** Whether `field` (a column's name) holds sensitive personal data. */
export function isSensitiveField(field: string): boolean {
  const name = normalized(field)
  return CONTAINS.some((part) => name.includes(part)) || (EXACTLY as readonly string[]).includes(name)
}
