/**
 * The one rule for naming columns (decision 054). A column's name is the service's field name, which is data: any
 * characters, spaces, slashes, quotes, formula-like text, `__proto__`, even a NUL or a lone surrogate half. A
 * request names a column exactly as the cache lists it, and main looks it up in that list (a Map, never an
 * object's properties); SQL binds it as a parameter, XML escapes it, a header cell is typed text. So the only
 * limits are real ones: how many columns a spreadsheet holds and how long a cell's text may be.
 *
 * Here, zod-free, so the renderer, the IPC schemas (domain/query.ts, view-schema.ts, domain/export.ts) and the
 * CLI read the same numbers and words.
 */

/** The most columns an export, and so a view's layout, may hold: Excel's last column, XFD, is the 16,384th. */
export const MAX_COLUMNS = 16_384

/** The most characters (UTF-16 units) of a column's name: an Excel cell's most, so a header is the name whole. */
export const COLUMN_NAME_MAX_LENGTH = 32_767

const count = (value: number): string => value.toLocaleString('en-US')

/** Why an export of `asked` columns cannot be written, worded for a clerk, or undefined. */
export function columnCountProblem(asked: number): string | undefined {
  if (asked === 0) return 'Choose at least one column to export.'
  if (asked <= MAX_COLUMNS) return undefined
  return `An export can hold at most ${count(MAX_COLUMNS)} columns, the most Excel opens; you asked for ${count(asked)}.`
}

/** Why `name` cannot name a column, worded for a clerk, or undefined. */
export function columnNameProblem(name: string): string | undefined {
  if (name.length <= COLUMN_NAME_MAX_LENGTH) return undefined
  return `A column name can have at most ${count(COLUMN_NAME_MAX_LENGTH)} characters, the most an Excel cell holds; one has ${count(name.length)}.`
}

/** The first problem of a list of column names (their count, then each name), or undefined. */
export function columnListProblem(names: readonly string[]): string | undefined {
  const problem = columnCountProblem(names.length)
  if (problem !== undefined) return problem
  for (const name of names) {
    const nameProblem = columnNameProblem(name)
    if (nameProblem !== undefined) return nameProblem
  }
  return undefined
}

/** Characters of a column's name a message or log line quotes; a longer name is cut, marked with "…". */
const QUOTED_NAME_LENGTH = 80

/**
 * A column's name as a message or a log line quotes it: in double quotes, escaped as JSON escapes a string (so a
 * line break or control character in a hostile name cannot forge a log line or act on a terminal), and cut to
 * QUOTED_NAME_LENGTH characters.
 */
export function quotedColumnName(name: string): string {
  const cut = name.length > QUOTED_NAME_LENGTH ? `${name.slice(0, QUOTED_NAME_LENGTH - 1)}…` : name
  return JSON.stringify(cut)
}
