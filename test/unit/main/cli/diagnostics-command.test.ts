import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DIAGNOSTICS_USAGE, runDiagnosticsCommand } from '../../../../src/main/cli/diagnostics-command'
import { runCommand } from '../../../helpers/run-cli'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('cli diagnostics', () => {
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-cli-diag-'))
    dirs.push(dir)
    return dir
  }
  /** The command in-process, over an empty data folder of its own (the app never ran). */
  const run = (args: readonly string[], dir = tempDir()) =>
    runCommand(runDiagnosticsCommand, args, { ROSTERDESK_USER_DATA_DIR: join(dir, 'data') })

  it('exits 2 with a precise message for a missing --out, a name not ending in .zip, a folder that is not there, an unknown profile', async () => {
    for (const [args, message] of [
      [[], 'Missing --out.'],
      [['--out', '/tmp/x.txt'], '--out: "/tmp/x.txt" must end in .zip.'],
      [['--out', '/nowhere/at/all/x.zip'], '--out: the folder /nowhere/at/all does not exist.'],
      [
        ['--out', join(tmpdir(), 'x.zip'), '--profile', 'Payroll'],
        '--profile: no profile named "Payroll". Profiles: Demo.',
      ],
      [['--out', join(tmpdir(), 'x.zip'), '--zip'], "Unknown option '--zip'"],
    ] as const) {
      const result = await run(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toContain(message)
      expect(result.stderr).toContain(DIAGNOSTICS_USAGE)
    }
  })

  it('writes the file before the app ever ran (Demo only, no logs) and prints its path; nothing else is left', async () => {
    const dir = tempDir()
    const out = join(dir, 'RosterDesk diagnostics.zip')
    const result = await run(['--out', out], dir)
    expect(result).toEqual({ code: 0, stdout: `${out}\n`, stderr: '' })
    expect(statSync(out).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir).filter((name) => name !== 'data')).toEqual(['RosterDesk diagnostics.zip'])
    expect(existsSync(join(dir, 'data', 'logs'))).toBe(false)
  })
})
