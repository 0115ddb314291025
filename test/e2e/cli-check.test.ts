import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionReport } from '../../src/shared/connection-report'
import type { SandboxHandle } from '../../src/main/sandbox/index'
import { sandboxCliEnv, sandboxServiceArgs, startCliProcess, type CliResult } from '../helpers/cli-process'
import { startTestSandbox } from '../helpers/sandbox'

const SIZE = 37

function runCheck(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return startCliProcess(['check', ...args], env).done
}

/** stdout of `check --json`: exactly one JSON object. */
function report(result: CliResult): ConnectionReport {
  const lines = result.stdout.split('\n').filter((line) => line !== '')
  expect(lines, `stdout: ${result.stdout} stderr: ${result.stderr}`).toHaveLength(1)
  return JSON.parse(lines[0] ?? '') as ConnectionReport
}

function states(checked: ConnectionReport): string {
  return checked.steps.map((step) => `${step.id}:${step.state}`).join(' ')
}

function step(checked: ConnectionReport, id: string): ConnectionReport['steps'][number] {
  const found = checked.steps.find((candidate) => candidate.id === id)
  if (found === undefined) throw new Error(`no ${id} step`)
  return found
}

/** A port on 127.0.0.1 that nothing listens on: one the OS handed out, closed again. */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

describe('CLI: check', () => {
  let sandbox: SandboxHandle

  beforeAll(async () => {
    sandbox = await startTestSandbox({ size: SIZE, seed: 11 })
  })
  afterAll(async () => {
    await sandbox.close()
  })

  it('passes every step against the plain sandbox, the list skipped until signed in', async () => {
    const result = await runCheck(sandboxServiceArgs(sandbox))
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines[1]).toBe(`Service: ${sandbox.baseUrl}`)
    expect(lines.slice(2, 9).map((line) => line.slice(0, 1))).toEqual(['✓', '✓', '✓', '–', '✓', '✓', '–'])
    expect(result.stdout).toMatch(
      /^✓ Sign-in \(authorize\) endpoint answers \(\d+ ms\): HTTP 200 \(a web page\)$/m,
    )
    expect(result.stdout).toMatch(
      /^✓ Token endpoint answers JSON \(\d+ ms\): HTTP 400, JSON error invalid_request/m,
    )
    expect(result.stdout).toContain('– Employee list answers (page 1, limit 1): Sign in first')
    expect(lines.at(-1)).toBe('Result: every step passed.')
  })

  it('with tokens asks for one employee with the tenant header, and prints no secret', async () => {
    const env = sandboxCliEnv(sandbox)
    const result = await runCheck([...sandboxServiceArgs(sandbox), '--tenant', 'tenant-demo', '--json'], env)
    expect(result.code, result.stderr).toBe(0)
    const checked = report(result)
    expect(states(checked)).toBe('proxy:ok dns:ok tcp:ok tls:skipped authorize:ok token:ok list:ok')
    expect(step(checked, 'list').message).toBe(`answered with 1 of ${SIZE} employees (tenant tenant-demo)`)
    const everything = result.stdout + result.stderr
    for (const secret of [
      env['ROSTERDESK_ACCESS_TOKEN'],
      env['ROSTERDESK_REFRESH_TOKEN'],
      env['ROSTERDESK_CLIENT_SECRET'],
    ]) {
      expect(secret).toBeTruthy()
      expect(everything).not.toContain(secret)
    }
    // The list step counts employees; no name from the service reaches the report.
    const first = sandbox.allEmployees()[0]
    expect(first).toBeDefined()
    expect(everything).not.toContain(String(first?.['lastName']))
    expect(everything).not.toContain(String(first?.['UUID']))
  })

  it('a refused connection fails TCP and skips the service, exit 1', async () => {
    const port = await deadPort()
    const result = await runCheck(['--base-url', `http://127.0.0.1:${port}`, '--json'])
    expect(result.code).toBe(1)
    const checked = report(result)
    expect(checked.ok).toBe(false)
    expect(states(checked)).toBe(
      'proxy:ok dns:ok tcp:failed tls:skipped authorize:skipped token:skipped list:skipped',
    )
    expect(step(checked, 'tcp')).toMatchObject({ code: 'connection-refused' })
    expect(step(checked, 'tcp').message).toContain(`127.0.0.1:${port} was refused`)
  })

  it('a name that does not resolve fails DNS, exit 1, the text naming the host', async () => {
    const result = await runCheck(['--base-url', 'https://payroll.rosterdesk-check.invalid'])
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(
      /^✗ DNS: payroll\.rosterdesk-check\.invalid \(\d+ ms\): The host name payroll\.rosterdesk-check\.invalid does not resolve\./m,
    )
    expect(result.stdout).toContain('– TCP: payroll.rosterdesk-check.invalid:443: The name')
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('Result: a step failed (✗ above).')
  })

  it('refuses bad flags as the other commands do, exit 2', async () => {
    const unknown = await runCheck(['--bogus'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("Unknown option '--bogus'")
    expect(unknown.stderr).toContain('Usage: check')
    const missing = await runCheck([])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('Missing --base-url.')
    expect(missing.stdout).toBe('')
  })
})
