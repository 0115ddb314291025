import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { limitProblems, linkProblems } from '../../helpers/doc-limits'

/**
 * The architecture map stays a map (one screenful per subject, read in ten minutes) and each decision record a
 * page: the limits of issue 30, measured on every `npm test`. A fact that does not fit goes to its own document,
 * linked from the map, or to the doc comment of the code it is about.
 */
const root = process.cwd()
const read = (file: string): string => readFileSync(join(root, file), 'utf8')

const MAP = 'docs/ARCHITECTURE.md'
const MAP_LIMITS = { lines: 350, characters: 25_000, lineLength: 160 }
const RECORD_LIMITS = { lines: 60 }
/** Documents whose relative links must name files that exist: the map and the two it hands its tables to. */
const LINKED = [MAP, 'docs/faults.md', 'docs/service-contract.md', 'docs/decisions/README.md']

describe('the documentation stays a map', () => {
  it(`keeps ${MAP} within ${MAP_LIMITS.lines} lines, ${MAP_LIMITS.characters} characters and lines of ${MAP_LIMITS.lineLength}`, () => {
    expect(limitProblems(MAP, read(MAP), MAP_LIMITS)).toEqual([])
  })

  it(`keeps each decision record within ${RECORD_LIMITS.lines} lines`, () => {
    const records = readdirSync(join(root, 'docs/decisions')).filter((name) => /^\d{3}-.*\.md$/.test(name))
    expect(records.length).toBeGreaterThan(40)
    const problems = records.flatMap((name) =>
      limitProblems(`docs/decisions/${name}`, read(`docs/decisions/${name}`), RECORD_LIMITS),
    )
    expect(problems).toEqual([])
  })

  it('links only to files that exist', () => {
    expect(LINKED.flatMap((file) => linkProblems(root, file, read(file)))).toEqual([])
  })

  it('names the file, the limit and the figure when a limit is broken', () => {
    const text = `${'x'.repeat(12)}\nshort\n[a](missing.md) [b] [c]\n\n[c]: ../docs/moves.md\n`
    expect(limitProblems('docs/x.md', text, { lines: 4, characters: 30, lineLength: 10 })).toEqual([
      'docs/x.md: 5 lines, over the limit of 4',
      'docs/x.md: 66 characters, over the limit of 30',
      'docs/x.md:1: a line of 12 characters, over the limit of 10',
      'docs/x.md:3: a line of 23 characters, over the limit of 10',
      'docs/x.md:5: a line of 21 characters, over the limit of 10',
    ])
    expect(linkProblems(root, 'docs/x.md', text)).toEqual([
      'docs/x.md: the link to missing.md names no file in the repository',
      'docs/x.md: [b] is a reference with no definition',
    ])
    expect(
      linkProblems(root, 'docs/x.md', '`[not a link]` [web](https://example.com) [here](#faults)\n'),
    ).toEqual([])
  })
})
