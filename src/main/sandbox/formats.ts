import { CULTURES } from './names'

/** Text formatting for generated rows, tuned because a million-row sort formats a million values. */

const DAY_MS = 86_400_000

const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

/** Table lookups: Number#toString(16) tripled the cost of generating a row. */
export function hexWord(value: number): string {
  return (
    (HEX_BYTES[(value >>> 24) & 255] ?? '') +
    (HEX_BYTES[(value >>> 16) & 255] ?? '') +
    (HEX_BYTES[(value >>> 8) & 255] ?? '') +
    (HEX_BYTES[value & 255] ?? '')
  )
}

export function hexHalf(value: number): string {
  return (HEX_BYTES[(value >>> 8) & 255] ?? '') + (HEX_BYTES[value & 255] ?? '')
}

/** Formatting dates through Date is slow; there are only ~13,500 distinct days, so format each once. */
const isoDays = new Map<number, string>()
export function isoDate(day: number): string {
  let text = isoDays.get(day)
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10)
    isoDays.set(day, text)
  }
  return text
}

/** Every possible `first.last.` e-mail prefix, ranked in code-unit order; built on first use. */
let emailPrefixRanks: Map<string, number> | null = null
export function emailPrefixRank(prefix: string): number {
  if (emailPrefixRanks === null) {
    const all = new Set<string>()
    for (const culture of CULTURES) {
      for (const first of culture.first)
        for (const last of culture.last) all.add(`${first.ascii}.${last.ascii}.`)
    }
    emailPrefixRanks = new Map([...all].sort().map((text, rank) => [text, rank]))
  }
  return emailPrefixRanks.get(prefix) ?? 0
}

/** `${n}@` read as base-11 digits with '@' as 10: '@' sorts after every digit, so '123@' < '12@'. */
export const EMAIL_NUMBER_DIGITS = 9
export function emailNumberKey(n: number): number {
  const digits = String(n)
  let key = 0
  for (let i = 0; i < EMAIL_NUMBER_DIGITS; i++) {
    const digit = i < digits.length ? digits.charCodeAt(i) - 48 : i === digits.length ? 10 : 0
    key = key * 11 + digit
  }
  return key
}
