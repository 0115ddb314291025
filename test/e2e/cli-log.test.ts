import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startCliProcess } from '../helpers/cli-process'
import { useScratch } from '../helpers/run-cli'

/**
 * The CLI as a scheduled job runs it: a failure's stack never reaches its stderr (read by people and scripts),
 * and the log file in the data folder keeps it whole (issue 32).
 */
describe('the CLI’s log', () => {
  const scratch = useScratch()

  it('prints a failure with its detail and no stack, and keeps the stack in the data folder’s cli.log', async () => {
    const dir = scratch.tempDir('rosterdesk-cli-log-')
    const damaged = join(dir, 'employees.sqlite')
    writeFileSync(damaged, 'not a database')
    const dataDir = join(dir, 'RosterDesk')
    const { done } = startCliProcess(['export', '--db', damaged, '--out', join(dir, 'Roster.xlsx')], {
      ROSTERDESK_USER_DATA_DIR: dataDir,
      ROSTERDESK_LOG_LEVEL: 'warn',
    })
    const { code, stdout, stderr } = await done
    expect(code).toBe(1)
    expect(stderr).toContain(
      'Export failed: The saved employees could not be unlocked with this computer’s key; a full sync is needed to rebuild them.',
    )
    expect(stderr).toMatch(/WARN {2}Export failed\n {2}RosterDeskError \[damaged-cache\]/)
    expect(`${stdout}\n${stderr}`).not.toMatch(/^\s+at /m)
    const logFile = join(dataDir, 'logs', 'cli.log')
    const kept = readFileSync(logFile, 'utf8')
    expect(kept).toMatch(
      /WARN {2}Export failed\n {2}RosterDeskError \[damaged-cache\][^\n]*\n {4}detail: [^\n]*\n {4}at /,
    )
    expect(statSync(logFile).mode & 0o777).toBe(0o600)
  })
})
