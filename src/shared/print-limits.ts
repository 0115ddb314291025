/**
 * Rows "Print…" puts on the page at most (about 125 landscape pages): a print of a whole 100,000-employee cache is
 * not a tidy table, so a larger view prints its first rows and the page says how many were left out. Shared, so
 * the renderer's test fake answers as main does.
 */
export const PRINT_MAX_ROWS = 5000
