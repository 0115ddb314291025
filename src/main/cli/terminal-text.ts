/**
 * Characters a terminal acts on rather than shows: C0 and C1 controls (ESC starts colour and cursor sequences,
 * BEL rings, NUL and backspace hide what follows), DEL, and the marks and overrides that reorder text on screen
 * (U+200E/F, U+202A–E, U+2066–9: U+202E shows "exe.gnp" as "png.exe").
 */
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/**
 * Text from the service (or anything quoting it) as a terminal should print it: each unshowable character written
 * as its `\uXXXX` escape, which is also how JSON may write it, so a `--json` line stays the same JSON. The CSV and
 * XLSX exports strip such characters instead (export/cell-values.ts); a terminal line is for reading.
 */
export function terminalText(text: string): string {
  return text.replace(
    UNSHOWABLE,
    (character) => `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  )
}
