import type { JsonValue } from '../../../shared/domain/rows'
import type { ListRow } from '../api/list-envelope'

/** ES2024's string methods (Node 22 and Electron's V8 have them; the project's TypeScript lib is older). */
type Es2024String = string & { isWellFormed(): boolean; toWellFormed(): string }

/**
 * A row whose field names are all well-formed text: a name holding half a surrogate pair (which JSON can carry as
 * `\ud800`) has it replaced with U+FFFD, as SQLite does when it stores the name in the cache's list of columns, so
 * the column the cache lists and the field the row holds are one name and the field is exportable under it (its
 * header in a spreadsheet would read U+FFFD anyway). The row object is returned as it came when every name is
 * well-formed; a replaced name keeps its place, and if it then equals another name the later field wins.
 */
export function wellFormedFieldNames(row: ListRow): ListRow {
  let wellFormed = true
  for (const key in row) {
    if (!(key as Es2024String).isWellFormed()) {
      wellFormed = false
      break
    }
  }
  if (wellFormed) return row
  const copy: Record<string, JsonValue> = {}
  for (const [key, value] of Object.entries(row)) {
    // Defined, not assigned: a field named `__proto__` stays a field.
    Object.defineProperty(copy, (key as Es2024String).toWellFormed(), {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return copy as ListRow
}
