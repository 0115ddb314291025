/**
 * What a sync says about field values it cut to the longest field allowed (`truncatedFields` on its summary): the
 * CLI's summary line and the app's sync bar use these words, each adding where to look.
 */
export function shortenedValuesText(count: number): string {
  const grouped = String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return count === 1 ? '1 long value was shortened' : `${grouped} long values were shortened`
}
