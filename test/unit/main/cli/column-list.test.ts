import { describe, expect, it } from 'vitest'
import { UsageError } from '../../../../src/main/cli/cache-command-args'
import { parseColumnList } from '../../../../src/main/cli/column-list'

/** `--columns` is one CSV record: a name holding a comma, a quote or edge spaces is quoted, quotes doubled. */
describe('--columns', () => {
  it('splits at commas and trims the spaces around a name, skipping empty ones', () => {
    expect(parseColumnList('UUID, lastName ,,hireDate,')).toEqual(['UUID', 'lastName', 'hireDate'])
    expect(parseColumnList('Cost Center,Job Title/Grade,=HYPERLINK(1),__proto__')).toEqual([
      'Cost Center',
      'Job Title/Grade',
      '=HYPERLINK(1)',
      '__proto__',
    ])
  })

  it('keeps a quoted name exactly: commas, doubled quotes, edge spaces, empty', () => {
    expect(parseColumnList('"Comma, Inc.", "say ""hi""" ,"  spaced  ",""')).toEqual([
      'Comma, Inc.',
      'say "hi"',
      '  spaced  ',
      '',
    ])
    expect(parseColumnList('a"b,c')).toEqual(['a"b', 'c'])
  })

  it('refuses an unclosed quote and text after a closing one, saying how to write it', () => {
    expect(() => parseColumnList('"Comma, Inc.')).toThrow(UsageError)
    expect(() => parseColumnList('"Comma, Inc.')).toThrow('--columns: a name opened with " is not closed')
    expect(() => parseColumnList('"a"b')).toThrow('--columns: a quoted name must be followed by a comma')
  })
})
