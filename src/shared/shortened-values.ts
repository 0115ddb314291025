/**
 * What a sync says about field values it cut to the longest field allowed (`truncatedFields` on its summary): the
 * CLI's summary line and the app's sync bar use these words, each adding where to look.
 */
export function shortenedValuesText(count: number): string {
  return count === 1 ? '1 long value was shortened' : `${grouped(count)} long values were shortened`
}

/**
 * What a sync says about numbers beyond a double's range it kept as their text (`numbersTooLarge` and
 * `numbersTooSmall` on its summary, decision 052), in the CLI's summary line and the app's sync bar; empty when
 * there were none. "2 values were too large for a number and were kept as text."
 */
export function numbersAsTextText(tooLarge = 0, tooSmall = 0): string {
  const said = (count: number, what: string): string =>
    count === 0
      ? ''
      : count === 1
        ? `1 value was too ${what} for a number and was kept as text.`
        : `${grouped(count)} values were too ${what} for a number and were kept as text.`
  return [said(tooLarge, 'large'), said(tooSmall, 'small')].filter((text) => text !== '').join(' ')
}

function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}
