/**
 * Right-to-left letters, and the explicit direction controls (embeddings, overrides, isolates and marks) a service
 * could put in its text. Text without them reads the same with or without an isolate around it.
 */
const BIDI_SIGNIFICANT =
  /[\u0590-\u08FF\u200F\u202A-\u202E\u2066-\u2069\u061C\uFB1D-\uFDFF\uFE70-\uFEFF]|[\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u

/**
 * The service's text for a place that holds only text (an `<option>`, a sentence built as one string), where
 * `<bdi>` and `unicode-bidi: isolate` cannot reach: wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE
 * when it could reorder what follows it (a U+202E override in a pay cycle's name), and left as it is otherwise.
 */
export function isolateText(text: string): string {
  return BIDI_SIGNIFICANT.test(text) ? `\u2068${text}\u2069` : text
}
