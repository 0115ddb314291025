import { execFile } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { electronBindingPath } from '../../../src/main/core/cache/native-binding'
import { makeTempDir } from './cache-test-helpers'

const SCRIPT = resolve(__dirname, '..', '..', '..', 'scripts', 'electron-sqlite.mjs')
const run = promisify(execFile)

/** Only the script's path logic and its quick exits run here: nothing is downloaded or compiled. */
describe('scripts/electron-sqlite.mjs', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => ({ dir: root, cleanup } = makeTempDir('rosterdesk-native-')))
  afterEach(() => cleanup())

  it('computes the same binding path as the core', async () => {
    expect(electronBindingPath('/app', '45.4.1', 'win32', 'arm64')).toBe(
      join('/app', 'native', 'electron', '45.4.1-win32-arm64', 'better_sqlite3.node'),
    )
    const { stdout } = await run(process.execPath, [
      SCRIPT,
      '--print-path',
      '--root',
      root,
      '--electron-version',
      '45.4.1',
    ])
    expect(stdout.trim()).toBe(electronBindingPath(root, '45.4.1', process.platform, process.arch))
  })

  it('reads the Electron version from node_modules/electron', async () => {
    mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true })
    writeFileSync(
      join(root, 'node_modules', 'electron', 'package.json'),
      JSON.stringify({ version: '99.1.2' }),
    )
    const { stdout } = await run(process.execPath, [SCRIPT, '--print-path', '--root', root])
    expect(stdout.trim()).toBe(electronBindingPath(root, '99.1.2', process.platform, process.arch))
  })

  it('exits at once when the binding is already there', async () => {
    const target = electronBindingPath(root, '45.4.1', process.platform, process.arch)
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, 'binary')
    const { stdout } = await run(process.execPath, [SCRIPT, '--root', root, '--electron-version', '45.4.1'])
    expect(stdout).toMatch(/better-sqlite3 for Electron 45\.4\.1 is ready/)
  })

  it('says clearly what is wrong when Electron is not installed', async () => {
    const failure = await run(process.execPath, [SCRIPT, '--root', root]).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    )
    expect(failure?.code).toBe(1)
    expect(failure?.stderr).toMatch(
      /could not prepare better-sqlite3 for Electron: Electron is not installed/,
    )
  })
})
