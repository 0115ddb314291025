import { chmodSync, existsSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { POLICY_PROBLEM_PREFIX } from '../../src/shared/policy-view'
import { startCliProcess } from '../helpers/cli-process'
import { makeTempDir } from '../helpers/cache-test-helpers'

const FIXTURES = resolve(__dirname, '../fixtures/policy')
const SECRET = 'p0licy-s3cret-never-printed'
const LOCKED_URL = 'https://payroll.acme.example'

/**
 * Issue 25's machine policy on the command line, each command a process of its own as an administrator or a
 * scheduled job runs it: `policy --check` on a valid and an invalid file, `policy --json`, and commands that
 * obey a policy named by ROSTERDESK_POLICY_FILE (a locked base URL, client ID and proxy refused, naming it).
 */
describe('CLI: the machine policy', () => {
  let dir: string
  let cleanup: () => void
  let policyFile: string

  beforeAll(() => {
    ;({ dir, cleanup } = makeTempDir('rosterdesk-e2e-cli-policy-'))
    policyFile = join(dir, 'policy.json')
    writeFileSync(
      policyFile,
      JSON.stringify({
        profiles: [
          {
            name: 'Payroll',
            environment: 'production',
            baseUrl: LOCKED_URL,
            clientId: 'rosterdesk-desktop',
            clientSecret: SECRET,
            redirectUri: 'http://127.0.0.1:8765/callback',
            tenantId: 'acme',
            locked: ['baseUrl', 'clientId', 'tenantId'],
          },
        ],
        network: { proxyMode: 'none' },
      }),
    )
  })
  afterAll(() => cleanup())

  /** A run with the policy file named, an empty data folder (the app never ran) and a token to spare. */
  const withPolicy = (args: readonly string[]) =>
    startCliProcess(args, {
      ROSTERDESK_POLICY_FILE: policyFile,
      ROSTERDESK_USER_DATA_DIR: join(dir, 'data'),
      ROSTERDESK_ACCESS_TOKEN: 'not-used',
    }).done

  it('policy --check: a valid file exits 0 with a summary, never the secret', async () => {
    const result = await startCliProcess(['policy', '--check', join(FIXTURES, 'valid-policy.json')]).done
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('valid-policy.json is a valid RosterDesk policy:')
    expect(result.stdout).toContain('locks: baseUrls.staging, clientId, tenantId, environment')
    expect(result.stdout).toContain('client secret: set')
    expect(result.stdout).not.toContain('s3cret-in-file')
  })

  it('policy --check: an invalid file exits 1 with every reason (not JSON, wrong types, an unknown key)', async () => {
    const result = await startCliProcess(['policy', '--check', join(FIXTURES, 'invalid-policy.json')]).done
    expect(result.code).toBe(1)
    const reasons = result.stderr.split('\n').filter((line) => line.startsWith('  - '))
    expect(reasons).toEqual([
      expect.stringMatching(/^ {2}- profiles\[0\]\.baseUrl: /),
      '  - profiles[0].clientSecret: The client secret must be text.',
      '  - exports.csvAllowed: "exports.csvAllowed" must be true or false.',
      '  - These are not RosterDesk policy keys: netwrok.',
    ])
    const notJson = join(dir, 'broken.json')
    writeFileSync(notJson, `{ "profiles": [ { "name": "P", "clientSecret": "${SECRET}" ] }`)
    const broken = await startCliProcess(['policy', '--check', notJson]).done
    expect(broken.code).toBe(1)
    expect(broken.stderr).toMatch(/- the file is not JSON \(line 1, column \d+\)/)
    expect(broken.stderr).not.toContain(SECRET)
    const twice = join(dir, 'twice.json')
    writeFileSync(twice, JSON.stringify({ profiles: [{ name: 'Acme' }, { name: 'ACME' }] }))
    const duplicate = await startCliProcess(['policy', '--check', twice]).done
    expect(duplicate.code).toBe(1)
    expect(duplicate.stderr).toContain(
      '  - profiles[1].name: "ACME" is the name of another profile in the policy ("Acme"); names compare ignoring case.',
    )
  })

  it('policy --json: the policy in force, its source and locks, the secret only as hasClientSecret', async () => {
    const result = await withPolicy(['policy', '--json'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).not.toContain(SECRET)
    const shown = JSON.parse(result.stdout) as {
      source: string
      problem: string | null
      policy: { profiles: Array<Record<string, unknown>> }
      locked: Record<string, string[]>
    }
    expect(shown.source).toBe(policyFile)
    expect(shown.problem).toBeNull()
    expect(shown.policy.profiles[0]).toMatchObject({ name: 'Payroll', hasClientSecret: true })
    expect(shown.policy.profiles[0]).not.toHaveProperty('clientSecret')
    // A locked base URL locks its environment too.
    expect(shown.locked).toEqual({
      Payroll: ['baseUrls.production', 'clientId', 'tenantId', 'environment', 'proxyMode'],
    })
  })

  it('refuses a sync whose --base-url overrides the locked one, naming the policy (exit 2, nothing written)', async () => {
    const db = join(dir, 'refused.sqlite')
    const result = await withPolicy([
      'sync',
      '--profile',
      'Payroll',
      '--base-url',
      'https://elsewhere.example',
      '--db',
      db,
    ])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`--base-url (it is ${LOCKED_URL})`)
    expect(result.stderr).toContain(
      `your organisation sets this for "Payroll" in the machine policy (${policyFile})`,
    )
    expect(existsSync(db)).toBe(false)
  })

  it('refuses, without --profile, a client ID and a proxy that contradict the policy for that service', async () => {
    const clientId = await withPolicy([
      'sync',
      '--base-url',
      LOCKED_URL,
      '--client-id',
      'my-own',
      '--redirect-uri',
      'http://127.0.0.1:8765/callback',
      '--db',
      join(dir, 'x.sqlite'),
    ])
    expect(clientId.code, clientId.stderr).toBe(2)
    expect(clientId.stderr).toContain(`--client-id (it is rosterdesk-desktop): your organisation sets this`)
    const proxy = await withPolicy(['check', '--base-url', LOCKED_URL, '--proxy', 'http://127.0.0.1:3128'])
    expect(proxy.code, proxy.stderr).toBe(2)
    expect(proxy.stderr).toContain(
      `--proxy: your organisation sets the proxy in the machine policy (${policyFile})`,
    )
  })

  it('refuses a policy file its group or others can write, saying why, and takes it once it is 0644', async () => {
    const file = join(dir, 'shared-policy.json')
    writeFileSync(file, JSON.stringify({ exports: { maxRows: 5 } }))
    const run = () => startCliProcess(['policy'], { ROSTERDESK_POLICY_FILE: file }).done
    for (const mode of [0o664, 0o646]) {
      chmodSync(file, mode)
      const refused = await run()
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain(
        `${POLICY_PROBLEM_PREFIX} ${file}: it can be changed by users who are not administrators (the file is writable by`,
      )
      expect(refused.stdout).not.toContain('Machine policy in force')
    }
    chmodSync(file, 0o644)
    const inForce = await run()
    expect(inForce.code, inForce.stderr).toBe(0)
    expect(inForce.stdout).toContain(`Machine policy in force, from ${file}:`)
  })

  it('warns once of a policy it cannot read and applies none of it', async () => {
    const result = await startCliProcess(['policy'], {
      ROSTERDESK_POLICY_FILE: join(FIXTURES, 'invalid-policy.json'),
    }).done
    expect(result.code).toBe(1)
    expect(result.stderr.startsWith(POLICY_PROBLEM_PREFIX)).toBe(true)
    expect(result.stderr).toContain('invalid-policy.json: profiles[0].baseUrl')
  })
})
