/** Excel's column letters for a 1-based column number: 1 → A, 27 → AA. */
export function columnLetter(column: number): string {
  let letters = ''
  let n = column
  while (n > 0) {
    const rest = (n - 1) % 26
    letters = String.fromCharCode(65 + rest) + letters
    n = Math.floor((n - 1) / 26)
  }
  return letters
}
