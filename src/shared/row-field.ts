import type { EmployeeRow, JsonValue } from './domain/rows'

/**
 * Row `row`'s own field `key`, or undefined when it has none. A row is an object keyed by the service's field
 * names, so `row[key]` alone answers `constructor`, `toString` or `__proto__` from Object's prototype for a row
 * without that field; everything that reads a field by a column's name reads it here.
 */
export function fieldOf(row: EmployeeRow, key: string): JsonValue | undefined {
  const value: unknown = row[key]
  // What a row inherits is a function or an object; text, a number or a boolean is the row's own.
  if (value === undefined || (typeof value !== 'object' && typeof value !== 'function')) {
    return value as JsonValue | undefined
  }
  return Object.hasOwn(row, key) ? (value as JsonValue) : undefined
}
