import type { JsonValue } from '../../../shared/domain/rows'
import type { ListRow } from '../api/list-envelope'

/** What a cut value ends with, so a clerk reading it (on screen, in an export) sees it is not whole. */
export const TRUNCATION_MARK = '…'

export interface LimitedRow {
  readonly row: ListRow
  /** Fields of this row that were cut. */
  readonly truncated: number
}

/**
 * A row with every field kept to `maxChars` characters: a longer text is cut and ends with "…" (the mark counted
 * in the length, never splitting a surrogate pair), and a longer list or object is kept as its JSON text cut the
 * same way, since half a structure is not one. `keep` names the fields never cut (the UUID: a cut one would be
 * another employee). The row object is returned as it came when nothing was cut.
 */
export function limitFields(row: ListRow, maxChars: number, keep: ReadonlySet<string>): LimitedRow {
  let copy: Record<string, JsonValue> | undefined
  let truncated = 0
  for (const [field, value] of Object.entries(row)) {
    if (keep.has(field)) continue
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'object' && value !== null
          ? JSON.stringify(value)
          : undefined
    if (text === undefined || text.length <= maxChars) continue
    copy ??= { ...row }
    copy[field] = cutText(text, maxChars)
    truncated++
  }
  return { row: copy ?? row, truncated }
}

function cutText(text: string, maxChars: number): string {
  let end = Math.max(0, maxChars - TRUNCATION_MARK.length)
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return text.slice(0, end) + TRUNCATION_MARK
}
