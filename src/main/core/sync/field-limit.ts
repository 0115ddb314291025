import type { JsonValue } from '../../../shared/domain/rows'
import type { ListRow } from '../api/list-envelope'

/** What a cut value ends with, so a clerk reading it (on screen, in an export) sees it is not whole. */
export const TRUNCATION_MARK = '…'

/**
 * The deepest a field's value may nest (a list in a list is 2 levels; text and numbers 0). A deeper one is kept
 * as its JSON text up to where it goes deeper, cut and marked like an over-long value: nothing RosterDesk stores
 * or writes (JSON.stringify, which recursion overflows at some thousands of levels) sees more (issue 32).
 */
export const MAX_FIELD_DEPTH = 64

export interface LimitedRow {
  readonly row: ListRow
  /** Fields of this row that were cut. */
  readonly truncated: number
  /** Of those, the ones cut because they nest deeper than `MAX_FIELD_DEPTH`. */
  readonly deep: number
}

/**
 * A row with every field kept to `maxChars` characters and `MAX_FIELD_DEPTH` levels, the one rule for both: a
 * longer text is cut and ends with "…" (the mark counted in the length, never splitting a surrogate pair); a
 * longer list or object is kept as its JSON text cut the same way, since half a structure is not one; a deeper one
 * as its JSON text up to the first value deeper than `MAX_FIELD_DEPTH`, ending with "…" (within `maxChars` too).
 * `keep` names the fields never cut (the UUID: a cut one would be another employee). The row object is returned as
 * it came when nothing was cut.
 */
export function limitFields(row: ListRow, maxChars: number, keep: ReadonlySet<string>): LimitedRow {
  let copy: Record<string, JsonValue> | undefined
  let truncated = 0
  let deep = 0
  for (const [field, value] of Object.entries(row)) {
    if (keep.has(field)) continue
    let text: string | undefined
    if (typeof value === 'string') text = value
    else if (typeof value === 'object' && value !== null) {
      if (nestsDeeper(value, MAX_FIELD_DEPTH)) {
        copy ??= { ...row }
        copy[field] = cutText(shallowJson(value, maxChars), maxChars, true)
        truncated++
        deep++
        continue
      }
      text = JSON.stringify(value)
    }
    if (text === undefined || text.length <= maxChars) continue
    copy ??= { ...row }
    copy[field] = cutText(text, maxChars, false)
    truncated++
  }
  return { row: copy ?? row, truncated, deep }
}

/** Whether a list or object holds one nested more than `levels` deep (itself counts 1). Recursion ≤ `levels`. */
function nestsDeeper(value: JsonValue, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (levels === 0) return true
  for (const inner of Array.isArray(value) ? value : Object.values(value)) {
    if (typeof inner === 'object' && inner !== null && nestsDeeper(inner, levels - 1)) return true
  }
  return false
}

/**
 * The start of a value's JSON text, as JSON.stringify writes it, up to the first list or object deeper than
 * `MAX_FIELD_DEPTH` or past `maxChars` characters, whichever comes first. Recursion ≤ `MAX_FIELD_DEPTH`.
 */
function shallowJson(value: JsonValue, maxChars: number): string {
  let text = ''
  const write = (inner: JsonValue, levels: number): boolean => {
    if (text.length > maxChars) return false
    if (typeof inner !== 'object' || inner === null) {
      text += JSON.stringify(inner)
      return true
    }
    if (levels === 0) return false
    if (Array.isArray(inner)) {
      text += '['
      for (let i = 0; i < inner.length; i++) {
        if (i > 0) text += ','
        if (!write(inner[i] as JsonValue, levels - 1)) return false
      }
      text += ']'
    } else {
      text += '{'
      let first = true
      for (const [key, item] of Object.entries(inner)) {
        text += (first ? '' : ',') + JSON.stringify(key) + ':'
        first = false
        if (!write(item, levels - 1)) return false
      }
      text += '}'
    }
    return true
  }
  write(value, MAX_FIELD_DEPTH)
  return text
}

/** The text within `maxChars`, ending with the mark; `always` marks it even when it fits. */
function cutText(text: string, maxChars: number, always: boolean): string {
  if (always && text.length + TRUNCATION_MARK.length <= maxChars) return text + TRUNCATION_MARK
  let end = Math.max(0, maxChars - TRUNCATION_MARK.length)
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return text.slice(0, end) + TRUNCATION_MARK
}
