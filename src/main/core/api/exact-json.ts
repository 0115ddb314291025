const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/

/** The parsed value and how many numbers beyond a double's range were kept as their text. */
export interface ExactJson {
  readonly value: unknown
  /** Numbers too large for a double (1e400, which `JSON.parse` makes Infinity), kept as their text. */
  readonly tooLarge: number
  /** Numbers too small for a double (1e-400, which `JSON.parse` makes 0), kept as their text. */
  readonly tooSmall: number
}

/**
 * JSON text as a value, every number exactly as the text wrote it (decision 052): a number whose double reads
 * back as other digits (9007199254740993, 12345678901234567890) or as none (1e400, 1e-400) is kept as its text, a
 * string; every other number is a number. The text is scanned once (strings skipped by `indexOf`), literals of
 * 16 characters or more or with an exponent checked, those a double changes written as strings, and the result
 * parsed by the plain `JSON.parse`, which, unlike a reviver's walk, nests as deep as the text does without using
 * the stack (a reviver overflows it at a few thousand levels). About a third of `JSON.parse`'s own time on a
 * page of 1,000 rows (bench figures in decision 052). Throws SyntaxError for text that is not JSON.
 */
export function parseJsonExactly(text: string): ExactJson {
  let tooLarge = 0
  let tooSmall = 0
  let out = ''
  let copied = 0
  const length = text.length
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x22) {
      i = stringEnd(text, i)
      continue
    }
    if (code !== 0x2d && (code < 0x30 || code > 0x39)) continue
    let end = i + 1
    while (end < length && isNumberChar(text.charCodeAt(end))) end++
    const literal = text.slice(i, end)
    i = end - 1
    if (isShortPlain(literal) || !JSON_NUMBER.test(literal) || isKey(text, end)) continue
    const value = Number(literal)
    if (keepsDigits(value, literal)) continue
    if (value === 0) tooSmall++
    else if (!Number.isFinite(value)) tooLarge++
    out += text.slice(copied, i + 1 - literal.length) + '"' + literal + '"'
    copied = end
  }
  const value: unknown = JSON.parse(copied === 0 ? text : out + text.slice(copied))
  return { value, tooLarge, tooSmall }
}

/**
 * Whether text is a JSON number literal whose digits a double does not keep (`keepsDigits`): how
 * `parseJsonExactly` keeps such a number, so a column of them is typed as numbers (column-inference.ts).
 */
export function isNumberText(text: string): boolean {
  return !isShortPlain(text) && JSON_NUMBER.test(text) && !keepsDigits(Number(text), text)
}

/**
 * Whether a double's shortest decimal (`String(value)`) has the digits `literal` was written with: 1.50, 15e-1
 * and 1.5 are all 1.5; 9007199254740993 is not 9007199254740992. Infinity and an underflow to 0 keep none.
 */
export function keepsDigits(value: number, literal: string): boolean {
  if (!Number.isFinite(value)) return false
  const written = decimalOf(literal)
  if (value === 0) return written.digits === ''
  const read = decimalOf(String(value))
  return (
    written.digits === read.digits && written.exponent === read.exponent && written.negative === read.negative
  )
}

/** At most 15 digits and no exponent: a double always reads back as written (DBL_DIG). */
function isShortPlain(literal: string): boolean {
  return literal.length < 16 && literal.indexOf('e') < 0 && literal.indexOf('E') < 0
}

/** Digits, sign, dot and exponent: the characters a number literal is made of. */
function isNumberChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2e ||
    code === 0x65 ||
    code === 0x45 ||
    code === 0x2b ||
    code === 0x2d
  )
}

/** Whether a `:` follows: the literal is in a key's place, where a string would turn bad JSON into good. */
function isKey(text: string, from: number): boolean {
  let i = from
  while (i < text.length && text.charCodeAt(i) <= 0x20) i++
  return text.charCodeAt(i) === 0x3a
}

/** The index of the quote closing the string opened at `start` (escapes skipped), or the text's last index. */
function stringEnd(text: string, start: number): number {
  let i = start
  for (;;) {
    i = text.indexOf('"', i + 1)
    if (i < 0) return text.length - 1
    let slashes = 0
    while (text.charCodeAt(i - 1 - slashes) === 0x5c) slashes++
    if (slashes % 2 === 0) return i
  }
}

/** A decimal literal as significant digits (no leading or trailing zeros), the exponent of the last, the sign. */
function decimalOf(literal: string): { digits: string; exponent: number; negative: boolean } {
  const negative = literal.charCodeAt(0) === 0x2d
  const unsigned = negative ? literal.slice(1) : literal
  const e = unsigned.search(/[eE]/)
  const mantissa = e < 0 ? unsigned : unsigned.slice(0, e)
  const dot = mantissa.indexOf('.')
  const fraction = dot < 0 ? '' : mantissa.slice(dot + 1)
  const all = (dot < 0 ? mantissa : mantissa.slice(0, dot) + fraction).replace(/^0+/, '')
  const digits = all.replace(/0+$/, '')
  const exponent =
    (e < 0 ? 0 : Number(unsigned.slice(e + 1))) - fraction.length + (all.length - digits.length)
  return { digits, exponent: digits === '' ? 0 : exponent, negative }
}
