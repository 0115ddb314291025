import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * test/unit/ mirrors src/: the unit tests of src/<folder>/<file>.ts live in test/unit/<folder>/, so a source file's
 * tests are found by its path. The one exception is test/unit/repo/, for tests about the tree itself (layers and
 * lint, code shape, docs, packaging config, this check). Test helpers live in test/helpers/.
 */
const REPO_CHECK_DIR = 'repo'

function repoRoot(): string {
  let dir = __dirname
  while (!(existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src')))) {
    const up = dirname(dir)
    if (up === dir) throw new Error(`no repository root above ${__dirname}`)
    dir = up
  }
  return dir
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : [path]
  })
}

/** Why a test in test/unit/<folder>/ has no source folder to mirror, or undefined when src/<folder>/ holds source. */
function noMirror(root: string, folder: string): string | undefined {
  const dir = join(root, 'src', ...folder.split('/').filter(Boolean))
  const shown = folder === '' ? 'src/' : `src/${folder}/`
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return `there is no folder ${shown}`
  if (!readdirSync(dir, { withFileTypes: true }).some((entry) => entry.isFile())) {
    return `${shown} holds folders only, no source file of its own`
  }
  return undefined
}

describe('test/unit/ mirrors src/', () => {
  const root = repoRoot()
  const unit = join(root, 'test', 'unit')
  const tests = filesUnder(unit)
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => relative(unit, file).split(sep).join('/'))

  it('finds the unit tests', () => {
    expect(tests.length).toBeGreaterThan(0)
  })

  it('keeps every unit test in the folder that mirrors its source folder, or in test/unit/repo/', () => {
    const offenders = tests.flatMap((test) => {
      const folder = test.includes('/') ? test.slice(0, test.lastIndexOf('/')) : ''
      if (folder === REPO_CHECK_DIR || folder.startsWith(`${REPO_CHECK_DIR}/`)) return []
      const why = noMirror(root, folder)
      return why === undefined ? [] : [`test/unit/${test}: ${why}`]
    })
    expect(offenders).toEqual([])
  })
})
