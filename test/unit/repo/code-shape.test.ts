import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import {
  folderGraph,
  importCircles,
  importGraph,
  longFunctions,
  parseSources,
  type ParsedSources,
} from '../../helpers/code-shape'

const root = process.cwd()
const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => /\.(ts|tsx|mts)$/.test(file) && !file.endsWith('.d.ts'))

let parsed: ParsedSources | undefined
let graph: Map<string, string[]> | undefined
/** The sources parsed, and their import graph, once for the measures below (whichever runs first). */
const parsedSources = (): ParsedSources => (parsed ??= parseSources(root, sources))
const sourceGraph = (): Map<string, string[]> => (graph ??= importGraph(root, parsedSources()))

/** core's own folders (src/main/core/<folder>/…), the units core-folders.mjs reasons about. */
function coreFolderOf(file: string): string | undefined {
  const match = /^src\/main\/core\/([^/]+)\//.exec(file)
  return match?.[1]
}

describe('the shape of the code', () => {
  it('has no function over 150 lines anywhere in src/', () => {
    expect(sources.length).toBeGreaterThan(100)
    const long = longFunctions(parsedSources(), 150).map(
      (f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`,
    )
    expect(long).toEqual([])
  })

  it('has no import circle in src/, type-only imports included', () => {
    expect([...sourceGraph().values()].flat().length).toBeGreaterThan(500)
    expect(importCircles(sourceGraph()).map((circle) => circle.join(' → '))).toEqual([])
  })

  it("has no circle between core's folders", () => {
    const folders = folderGraph(sourceGraph(), coreFolderOf)
    expect(folders.size).toBeGreaterThan(10)
    expect(importCircles(folders).map((circle) => circle.join(' → '))).toEqual([])
  })

  it('finds what it is looking for (the measures themselves, on code written for them)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
    ])
    expect(importCircles(graph)).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
    ])
    const lifted = folderGraph(
      new Map([
        ['x/1.ts', ['y/1.ts', 'x/2.ts']],
        ['x/2.ts', []],
        ['y/1.ts', ['x/2.ts']],
      ]),
      (file) => file.split('/')[0],
    )
    expect(importCircles(lifted)).toEqual([['x', 'y', 'x']])
  })
})
