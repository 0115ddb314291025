import type { JsonValue } from '../../../shared/domain'

const numberFormat = new Intl.NumberFormat('en')

/** A cell's text: every JSON value the service can send, shown as a clerk would read it. */
export function formatValue(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number') return numberFormat.format(value)
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  return JSON.stringify(value)
}

/** Counts with thousands separators ("12,345"). */
export function formatCount(value: number): string {
  return numberFormat.format(value)
}

/** "1 employee" / "2 employees". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`
}
