/**
 * Accent- and case-insensitive keys for names. One definition serves the snapshot writer (UUID keys) and the
 * query engine (name tokens, sort keys), so what is indexed and what is searched can never disagree.
 */

/** Letters that Unicode decomposition leaves alone but a clerk would type without the accent. */
const SPECIAL_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ı: 'i',
  þ: 'th',
  ħ: 'h',
}
const SPECIAL_PATTERN = /[ßæœøđðłıþħ]/g
const MARKS = /\p{M}+/gu
/** Characters that join the parts of one name: O'Brien, Smith-Jones, St.John. */
const JOINERS = /['’`´ʼ\-‐‑.·]/g
const NON_WORD = /[^\p{L}\p{N}]+/u
const PURE_WORD = /^[\p{L}\p{N}]+$/u

/** Lower case, accents removed, compatibility forms unified (full-width letters, ligatures). */
export function foldText(text: string): string {
  // NFKD splits "é" into "e" + a combining mark, which MARKS then drops; ASCII skips all of it.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase()
  return text
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(SPECIAL_PATTERN, (ch) => SPECIAL_FOLDS[ch] ?? ch)
}

/**
 * Spellings a clerk types for one letter, reduced to one form: German ae/oe/ue for ä/ö/ü (which folding has
 * already made a/o/u), Scandinavian aa for å, ss for ß. Each pair keeps its first letter, so "mueller",
 * "muller" and "müller" all read "muller". Applied to indexed tokens and typed words alike; as the pairs are read
 * left to right and keep their first letter, the form of a typed prefix is always a prefix of the form of the
 * whole word, so a match never disappears while the clerk is still typing. The price is a few extra matches
 * between real spellings ("Michael" also answers "Michal"), which a search box can afford.
 */
const TRANSLITERATED_PAIRS: readonly string[] = ['ae', 'oe', 'ue', 'aa', 'ss']

/** PAIR_TABLE[first * 128 + second] is 1 for each pair (all ASCII): one look-up per position, no pattern. */
const PAIR_TABLE = (() => {
  const table = new Uint8Array(128 * 128)
  for (const pair of TRANSLITERATED_PAIRS) table[pair.charCodeAt(0) * 128 + pair.charCodeAt(1)] = 1
  return table
})()

/**
 * A folded token or typed word in the one form both sides of a name search compare: each pair, read left to
 * right without overlapping (as a global pattern of the pairs would match them), becomes its first letter. A
 * scan rather than a pattern replace: a column index calls this for every token of every value, eight million
 * times for a million e-mail addresses, and the scan is about three times faster; a word with no pair is
 * returned as it is.
 */
export function transliterationKey(folded: string): string {
  let keyed: string | undefined
  let copied = 0
  for (let i = 0; i + 1 < folded.length; i++) {
    const first = folded.charCodeAt(i)
    const second = folded.charCodeAt(i + 1)
    if (first < 128 && second < 128 && PAIR_TABLE[first * 128 + second] === 1) {
      keyed = (keyed ?? '') + folded.slice(copied, i + 1)
      copied = i + 2
      i++
    }
  }
  return keyed === undefined ? folded : keyed + folded.slice(copied)
}

/**
 * The searchable tokens of one value: each word, each part of a joined word ("o'brien" gives "o" and "brien"),
 * and the joined word without its joiners ("obrien"), so a clerk finds O'Brien by typing any of those. Tokens
 * are in their transliteration key form (see transliterationKey).
 */
export function tokenize(text: string): string[] {
  const folded = foldText(text)
  // eslint-disable-next-line no-control-regex
  const tokens = /^[\x00-\x7f]*$/.test(folded) ? tokenizeAscii(folded) : tokenizeUnicode(folded)
  const keys = new Set<string>()
  for (const token of tokens) keys.add(transliterationKey(token))
  return [...keys]
}

function tokenizeUnicode(folded: string): Set<string> {
  const tokens = new Set<string>()
  for (const word of folded.split(/\s+/)) {
    if (word === '') continue
    if (PURE_WORD.test(word)) {
      tokens.add(word)
      continue
    }
    const joined = word.replace(JOINERS, '')
    for (const part of joined.split(NON_WORD)) if (part !== '') tokens.add(part)
    for (const part of word.split(NON_WORD)) if (part !== '') tokens.add(part)
  }
  return tokens
}

/** `tokenize` for folded ASCII text, with ASCII-only patterns (much faster than Unicode property classes). */
function tokenizeAscii(folded: string): Set<string> {
  const tokens = new Set<string>()
  for (const word of folded.split(/\s+/)) {
    if (word === '') continue
    if (/^[a-z0-9]+$/.test(word)) {
      tokens.add(word)
      continue
    }
    for (const part of word.replace(/['`.-]/g, '').split(/[^a-z0-9]+/)) if (part !== '') tokens.add(part)
    for (const part of word.split(/[^a-z0-9]+/)) if (part !== '') tokens.add(part)
  }
  return tokens
}

/**
 * One typed search word as a token prefix: folded, joiners and punctuation removed, in transliteration key form
 * ("O'Br" → "obr", "Mueller" → "muller").
 */
export function foldSearchWord(word: string): string {
  return transliterationKey(foldText(word).replace(/[^\p{L}\p{N}]+/gu, ''))
}

/** The words of a search box, each folded; empty words dropped. */
export function searchWords(text: string): string[] {
  return text
    .split(/\s+/)
    .map((raw) => ({ raw, folded: foldSearchWord(raw) }))
    .filter((word) => word.folded !== '')
    .map((word) => word.folded)
}
