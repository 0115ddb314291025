import type { EmployeeRow } from '../../../shared/domain/rows'

/**
 * An employee row as the cache stored it (`row_json`), or null when the text is not a JSON object: a row read
 * back to compare or describe it must never stop a sync because an older file holds something unexpected.
 */
export function parseStoredRow(json: string): EmployeeRow | null {
  try {
    const value: unknown = JSON.parse(json)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as EmployeeRow)
      : null
  } catch {
    return null
  }
}
