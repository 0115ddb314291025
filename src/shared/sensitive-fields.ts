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

/** Parts of a name that make a field an account or card number, whose masked form keeps its last four characters. */
const ACCOUNT_PARTS = ['iban', 'bankaccount', 'accountnumber'] as const

/** What a masked cell shows instead of a pay amount or any sensitive value but an account number. */
export const MASKED_VALUE = '•••••'

/**
 * A sensitive value as a masked cell shows it (`personalData.maskSensitiveColumns`): an account number (an IBAN,
 * a bank account) as "•••• 4567", its last four characters (spaces left out) so a clerk can tell accounts apart;
 * any other value as MASKED_VALUE; nothing (null, '') as nothing.
 */
export function maskedText(field: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return ''
  const name = normalized(field)
  if (ACCOUNT_PARTS.some((part) => name.includes(part))) {
    const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s+/g, '')
    if (text.length > 4) return `•••• ${text.slice(-4)}`
  }
  return MASKED_VALUE
}
