/**
 * The rules of "Did you mean …" that both sides read: when the renderer asks (the search found "very little")
 * and how many suggestions the core gives at most. The core's near-miss search is in
 * src/main/core/query/near-miss.ts.
 */

/**
 * A name search finds "very little" when it finds at most this many employees: none (a typo such as "Smtih"), or
 * one or two people with a rare spelling close to a common one ("Jonson" beside hundreds of Johnsons). Then, and
 * only then, the browse view asks the core for the closest saved names. A search finding three or more people
 * has found what the clerk typed; offering other names there would be noise.
 */
export const NEAR_MISS_FEW_MATCHES = 2

/** At most this many "Did you mean" suggestions, closest first. */
export const NEAR_MISS_MAX_SUGGESTIONS = 5
