import type { EmployeeRow, JsonValue } from '../../../shared/domain/rows'
import { formatValue } from './format-value'

/**
 * A field that names another employee by their UUID (the demo service's `managerUUID`): any field but `UUID`
 * itself whose name ends in "UUID" (any case) and whose value is text. The detail panel shows whom it names.
 */
export function isEmployeeReference(key: string, value: JsonValue | undefined): value is string {
  return key !== 'UUID' && /uuid$/i.test(key) && typeof value === 'string' && value.trim() !== ''
}

/** "Manager UUID" → "Manager": the field's label once it shows a person instead of their UUID. */
export function referenceLabel(label: string): string {
  const shorter = label.replace(/[\s_-]*uuid$/i, '')
  return shorter === '' ? label : shorter
}

/**
 * The person a reference names, as the clerk knows them: "Ana Brown (000002)", first and last name from the
 * saved employees with their employee number when the data has one.
 */
export function referenceText(row: EmployeeRow): string {
  const name = [row['firstName'], row['lastName']]
    .map((part) => formatValue(part))
    .filter((part) => part.trim() !== '')
    .join(' ')
  const number = row['employeeNumber']
  const numberText = number === undefined || number === null || number === '' ? '' : formatValue(number)
  if (name === '') return numberText
  return numberText === '' ? name : `${name} (${numberText})`
}
