/**
 * Whether a column's values are (almost) all distinct, judged from `sampleSize` evenly spaced values of those
 * `valueAt` gives (undefined: a row without one): at most one repeat in 256 sampled. Builds that key a table by
 * value (a map of distinct values) skip it for such a column, where it would hold a million strings for little;
 * a column of values repeated (a department, a date) keeps it. A larger sample also tells a column whose values
 * come twice each (1,024 of a million rows rarely catch a pair; 8,192 do). Only the speed depends on the answer.
 */
export function isMostlyDistinct<T>(
  count: number,
  valueAt: (index: number) => T | undefined,
  sampleSize: number,
): boolean {
  const step = Math.max(1, Math.floor(count / sampleSize))
  const sample = new Set<T>()
  let sampled = 0
  for (let index = 0; index < count; index += step) {
    const value = valueAt(index)
    if (value === undefined) continue
    sample.add(value)
    sampled++
  }
  return sampled - sample.size <= sampled >> 8
}
