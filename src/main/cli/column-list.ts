import { UsageError } from './cache-command-args'

/**
 * The column names of `--columns`, in order, read as one CSV record (RFC 4180), since a column's name is the
 * service's field name and may hold any character: names are separated by commas and trimmed of the spaces around
 * them (`UUID, lastName`); a name holding a comma or a quote, or spaces at its ends, is written in double quotes
 * with each quote doubled (`"Comma, Inc."`, `"say ""hi"""`, `"  spaced  "`), and kept exactly. An empty unquoted
 * name is skipped (`a,,b`, a trailing comma); `""` names a column whose name is empty.
 */
export function parseColumnList(text: string): string[] {
  const names: string[] = []
  let at = 0
  for (;;) {
    while (text[at] === ' ') at++
    if (text[at] === '"') {
      let name = ''
      at++
      for (;;) {
        const close = text.indexOf('"', at)
        if (close === -1) {
          throw new UsageError(
            '--columns: a name opened with " is not closed (write a quote inside a name as "").',
          )
        }
        name += text.slice(at, close)
        at = close + 1
        if (text[at] !== '"') break
        name += '"'
        at++
      }
      while (text[at] === ' ') at++
      if (at < text.length && text[at] !== ',') {
        throw new UsageError(
          '--columns: a quoted name must be followed by a comma or the end (quote the whole name: "a ""b"" c").',
        )
      }
      names.push(name)
    } else {
      const comma = text.indexOf(',', at)
      const name = text.slice(at, comma === -1 ? text.length : comma).trim()
      if (name !== '') names.push(name)
      at = comma === -1 ? text.length : comma
    }
    if (at >= text.length) return names
    at++ // the comma
  }
}
