import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runChangesCommand } from '../../../../src/main/cli/changes-command'
import { runSearchCommand } from '../../../../src/main/cli/search-command'
import { terminalText } from '../../../../src/main/cli/terminal-text'
import { openCacheDatabase } from '../../../../src/main/core/cache/cache-database'
import { HOSTILE_TEXTS } from '../../../../src/main/sandbox/hostile-names'
import { employee, seedSnapshot } from '../../../helpers/seed-snapshot'
import { tempFolder } from '../../../helpers/export-fixtures'
import { runCommand } from '../../../helpers/run-cli'
import { TEST_CACHE_KEY } from '../../../helpers/test-cache-key'

/** What a terminal acts on instead of printing (terminal-text.ts's list), never to reach the CLI's text output. */
// eslint-disable-next-line no-control-regex -- finding the control characters is the point
const UNSHOWABLE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/

describe('the CLI prints service text safely in a terminal', () => {
  let folder: ReturnType<typeof tempFolder>
  afterEach(() => folder.remove())

  it('escapes control characters and direction overrides in names: search and changes, text and JSON', async () => {
    folder = tempFolder()
    const db = join(folder.path, 'cache.db')
    const cache = openCacheDatabase(db, { key: TEST_CACHE_KEY })
    const hostile = HOSTILE_TEXTS.slice(0, 3).map((text, index) =>
      employee(`u-${index}`, text.first, text.last, 'Active', { jobTitle: text.jobTitle }),
    )
    await seedSnapshot(cache, [employee('u-plain', 'Ada', 'Lovelace', 'Active')])
    await seedSnapshot(cache, [employee('u-plain', 'Ada', 'Lovelace', 'Active'), ...hostile])
    cache.close()

    const search = await runCommand(runSearchCommand, ['--db', db])
    expect(search.code).toBe(0)
    const changes = await runCommand(runChangesCommand, ['--db', db, '--kind', 'added'])
    expect(changes.code, changes.stderr).toBe(0)
    for (const text of [search.stdout, changes.stdout]) {
      // Each line is one row: tabs separate the columns, and nothing else a terminal would act on is left.
      for (const line of text.split('\n')) expect(line.replace(/\t/g, ' ')).not.toMatch(UNSHOWABLE)
      expect(text).toContain('Esc\\u001B[31mRed\\u001B[0m\\u000D\\u000ANext\\u0008')
      expect(text).toContain('Lee\\u202Eeliforp')
    }
    // --json: the same values, as JSON already escapes them or may.
    const json = await runCommand(runSearchCommand, ['--db', db, '--json'])
    expect(json.stdout).not.toMatch(UNSHOWABLE)
    const rows = (JSON.parse(json.stdout) as { rows: Array<Record<string, unknown>> }).rows
    expect(rows.map((row) => row['lastName'])).toEqual(
      expect.arrayContaining(HOSTILE_TEXTS.slice(0, 3).map((text) => text.last)),
    )
  })

  it('writes each unshowable character as its \\u escape and leaves everything else alone', () => {
    expect(terminalText('a\u0000b\u001bc\u007fd\u0085e\u202ef\u2067g')).toBe(
      'a\\u0000b\\u001Bc\\u007Fd\\u0085e\\u202Ef\\u2067g',
    )
    expect(terminalText('Łódź 東京 مرحبا Zoë')).toBe('Łódź 東京 مرحبا Zoë')
  })
})
