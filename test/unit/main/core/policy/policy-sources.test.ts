import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { POLICY_PROBLEM_PREFIX } from '../../../../../src/shared/policy-view'
import type { PolicyFileRead } from '../../../../../src/main/core/policy/policy-file-trust'
import {
  loadMachinePolicy,
  machinePolicyFile,
  policyTextProblems,
  type PolicySourceDeps,
  type RegistryQueryResult,
} from '../../../../../src/main/core/policy/policy-sources'
import { POLICY_REGISTRY_KEY } from '../../../../../src/main/core/policy/policy-schema'
import { parseRegistryReport, registryScript } from '../../../../../src/main/core/policy/registry-query'

const fixture = (name: string): string =>
  readFileSync(resolve(__dirname, '../../../../fixtures/policy', name), 'utf8')

/** Sources over an in-memory file system and a recorded registry report; records what was read. */

/** A recorded report of the registry script (test/fixtures/policy/registry-*.json), as the sources read it. */
const registryFixture = (name: string): RegistryQueryResult =>
  parseRegistryReport(fixture(`registry-${name}.json`))
function sources(
  options: {
    platform?: NodeJS.Platform
    env?: Record<string, string>
    packaged?: boolean
    files?: Record<string, string | NodeJS.ErrnoException | PolicyFileRead>
    registry?: RegistryQueryResult | Error
  } = {},
): PolicySourceDeps & { read: string[]; queried: string[] } {
  const read: string[] = []
  const queried: string[] = []
  const readFrom = async (path: string): Promise<PolicyFileRead> => {
    read.push(path)
    const file = options.files?.[path]
    if (file === undefined) return { kind: 'missing' }
    if (file instanceof Error) throw file
    return typeof file === 'string' ? { kind: 'read', text: file } : file
  }
  return {
    platform: options.platform ?? 'linux',
    env: options.env ?? {},
    packaged: options.packaged ?? true,
    read,
    queried,
    readMachineFile: async () => {
      const path = machinePolicyFile(options.platform ?? 'linux', options.env ?? {})
      return { path, read: await readFrom(path) }
    },
    readNamedFile: readFrom,
    queryRegistry: async (key) => {
      queried.push(key)
      const answer = options.registry ?? { kind: 'missing' }
      if (answer instanceof Error) throw answer
      return answer
    },
  }
}

const WINDOWS_FILE = 'D:\\ProgramData\\RosterDesk\\policy.json'

describe('the machine policy file', () => {
  it('is ignored whole when users who are not administrators can change it, saying why', async () => {
    const refused: PolicyFileRead = {
      kind: 'refused',
      reason: 'it can be changed by users who are not administrators (the file is writable by others)',
      detail: '/etc/rosterdesk/policy.json: mode 0666',
    }
    const policy = await loadMachinePolicy(sources({ files: { '/etc/rosterdesk/policy.json': refused } }))
    expect(policy.policy).toBeUndefined()
    expect(policy.problem?.message).toBe(
      `${POLICY_PROBLEM_PREFIX} /etc/rosterdesk/policy.json: it can be changed by users who are not administrators (the file is writable by others). None of it is applied until it is fixed; tell your IT department.`,
    )
    expect(policy.problem?.detail).toBe(
      'policy /etc/rosterdesk/policy.json: /etc/rosterdesk/policy.json: mode 0666',
    )
  })

  it('is a problem, not a crash, when its permissions cannot be checked', async () => {
    const deps = sources()
    const policy = await loadMachinePolicy({
      ...deps,
      readMachineFile: () => Promise.reject(new Error('the permission check failed: timed out')),
    })
    expect(policy.problem?.message).toContain('the file or its permissions cannot be read (see the log)')
    expect(policy.problem?.detail).toContain('timed out')
  })

  it('is read from each OS’s machine-wide location', async () => {
    const linux = sources({ files: { '/etc/rosterdesk/policy.json': fixture('valid-policy.json') } })
    const policy = await loadMachinePolicy(linux)
    expect(policy.source).toBe('/etc/rosterdesk/policy.json')
    expect(policy.policy?.profiles?.[0]).toMatchObject({
      name: 'Payroll',
      baseUrl: 'https://payroll.acme.example',
    })
    expect(policy.policy?.exports).toEqual({ csvAllowed: false, maxRows: 5000 })

    const mac = sources({ platform: 'darwin' })
    expect(await loadMachinePolicy(mac)).toEqual({ policy: undefined, source: undefined, problem: undefined })
    expect(mac.read).toEqual(['/Library/Application Support/RosterDesk/policy.json'])

    const windows = sources({ platform: 'win32', env: { ProgramData: 'D:\\ProgramData' } })
    await loadMachinePolicy(windows)
    expect(windows.queried).toEqual([POLICY_REGISTRY_KEY])
    expect(windows.read).toEqual([WINDOWS_FILE])
  })

  it('ignores a file that is not JSON as a whole, saying where without quoting it', async () => {
    const text = '{\n  "profiles": [{ "name": "Payroll", "clientSecret": "s3cret-in-file" ]\n}'
    const policy = await loadMachinePolicy(sources({ files: { '/etc/rosterdesk/policy.json': text } }))
    expect(policy.policy).toBeUndefined()
    expect(policy.problem?.message).toMatch(
      new RegExp(
        `^${POLICY_PROBLEM_PREFIX} /etc/rosterdesk/policy.json: the file is not JSON \\(line 2, column \\d+\\)`,
      ),
    )
    expect(JSON.stringify(policy.problem)).not.toContain('s3cret')
  })

  it('ignores a policy that fails the schema as a whole, naming every bad key by its path and never the secret', async () => {
    const policy = await loadMachinePolicy(
      sources({ files: { '/etc/rosterdesk/policy.json': fixture('invalid-policy.json') } }),
    )
    expect(policy.policy).toBeUndefined()
    expect(policy.source).toBeUndefined()
    const message = policy.problem?.message ?? ''
    expect(message.startsWith(`${POLICY_PROBLEM_PREFIX} /etc/rosterdesk/policy.json:`)).toBe(true)
    expect(message).toContain('profiles[0].baseUrl: ')
    expect(message).toContain('profiles[0].clientSecret: The client secret must be text')
    expect(message).toContain('These are not RosterDesk policy keys: netwrok')
    expect(message).toContain('exports.csvAllowed: "exports.csvAllowed" must be true or false')
    expect(JSON.stringify(policy.problem)).not.toContain('12345')
  })

  it('is a problem when it exists but cannot be read, and no policy when it is missing', async () => {
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })
    const policy = await loadMachinePolicy(sources({ files: { '/etc/rosterdesk/policy.json': denied } }))
    expect(policy.problem?.message).toContain('/etc/rosterdesk/policy.json: the file cannot be read (EACCES)')
    expect(policy.problem?.detail).toContain('permission denied')
    expect((await loadMachinePolicy(sources())).problem).toBeUndefined()
  })
})

describe('ROSTERDESK_POLICY_FILE', () => {
  const env = { ROSTERDESK_POLICY_FILE: '/tmp/try-policy.json' }
  const files = {
    '/tmp/try-policy.json': '{ "network": { "proxyMode": "none" } }',
    '/etc/rosterdesk/policy.json': '{ "network": { "proxyMode": "system" } }',
  }

  it('replaces the machine locations (the registry too) when the app is not packaged', async () => {
    const unpackaged = sources({ platform: 'win32', env, files, packaged: false })
    const policy = await loadMachinePolicy(unpackaged)
    expect(policy).toMatchObject({
      source: '/tmp/try-policy.json',
      policy: { network: { proxyMode: 'none' } },
    })
    expect(unpackaged.queried).toEqual([])
    expect(unpackaged.read).toEqual(['/tmp/try-policy.json'])
  })

  it('is never read by a packaged app', async () => {
    const packaged = sources({ env, files, packaged: true })
    const policy = await loadMachinePolicy(packaged)
    expect(policy.source).toBe('/etc/rosterdesk/policy.json')
    expect(packaged.read).toEqual(['/etc/rosterdesk/policy.json'])
  })
})

describe('the Windows registry (recorded reports of the registry script)', () => {
  it('reads every value by POLICY_REGISTRY_VALUES: REG_SZ text, REG_DWORD numbers, 0/1 booleans, Profiles as JSON', async () => {
    const windows = sources({
      platform: 'win32',
      env: { ProgramData: 'D:\\ProgramData' },
      registry: registryFixture('full'),
      files: { [WINDOWS_FILE]: '{ "network": { "proxyMode": "none" } }' },
    })
    const policy = await loadMachinePolicy(windows)
    expect(policy.problem).toBeUndefined()
    expect(policy.source).toBe(POLICY_REGISTRY_KEY)
    expect(policy.policy).toEqual({
      profiles: [
        {
          name: 'Payroll',
          environment: 'production',
          baseUrl: 'https://payroll.example.com',
          clientId: 'rosterdesk-desktop',
          clientSecret: 's3cret-from-gpo',
          tenantId: 'acme',
          locked: ['baseUrl', 'clientId', 'tenantId'],
        },
      ],
      network: {
        proxyMode: 'fixed',
        proxyUrl: 'http://proxy.acme.example:8080',
        proxyBypass: '*.acme.example, <local>',
      },
      updates: { enabled: false, channel: 'beta' },
      exports: { csvAllowed: true, maxRows: 10000 },
      personalData: { deleteUnsyncedAfterDays: 30, clearOnSignOut: true },
    })
    // The registry wins whole: the file beside it is not read, so nothing is half-merged.
    expect(windows.read).toEqual([])
  })

  it('refuses an unknown value name, a wrong type, a DWORD that is not 0/1 and Profiles that are not JSON, all at once', async () => {
    const policy = await loadMachinePolicy(sources({ platform: 'win32', registry: registryFixture('bad') }))
    expect(policy.policy).toBeUndefined()
    const message = policy.problem?.message ?? ''
    expect(message.startsWith(`${POLICY_PROBLEM_PREFIX} ${POLICY_REGISTRY_KEY}:`)).toBe(true)
    expect(message).toContain('UpdatesEnabeld is not a RosterDesk policy value')
    expect(message).toContain('CsvExportsAllowed must be 0 (off) or 1 (on)')
    expect(message).toContain('MaxExportRows must be a REG_DWORD, not a REG_SZ')
    expect(message).toMatch(/Profiles is not JSON \(line 1, column \d+\)/)
    // Names compare ignoring case, as the registry's do: ProxyURL is ProxyUrl.
    expect(message).not.toContain('ProxyURL')
    expect(JSON.stringify(policy.problem)).not.toContain('s3cret')
  })

  it('reads only the values directly under the key: one under a subkey is refused by name, never applied', async () => {
    // The key holds no values; a leftover subkey "Old" holds one that would forbid CSV.
    const policy = await loadMachinePolicy(
      sources({ platform: 'win32', registry: registryFixture('subkey') }),
    )
    expect(policy.policy).toBeUndefined()
    expect(policy.problem?.message).toContain(
      `Old\\CsvExportsAllowed is under a subkey; only the values directly under ${POLICY_REGISTRY_KEY} are read`,
    )
    // The key's own header compares ignoring case, as Windows names keys.
    const upper = await loadMachinePolicy(
      sources({
        platform: 'win32',
        registry: parseRegistryReport(
          '{"values":[{"key":"HKEY_LOCAL_MACHINE\\\\SOFTWARE\\\\Policies\\\\ROSTERDESK","name":"CsvExportsAllowed","kind":"DWord","data":0}]}',
        ),
      }),
    )
    expect(upper).toMatchObject({ policy: { exports: { csvAllowed: false } }, problem: undefined })
  })

  it('falls back to the file when the key is missing or holds no value; a registry read that fails is a problem', async () => {
    for (const registry of [{ kind: 'missing' } as const, registryFixture('empty')]) {
      const windows = sources({ platform: 'win32', env: { ProgramData: 'D:\\ProgramData' }, registry })
      expect(await loadMachinePolicy(windows)).toMatchObject({ policy: undefined, problem: undefined })
      expect(windows.read).toEqual([WINDOWS_FILE])
    }
    const failing = sources({
      platform: 'win32',
      registry: new Error('reading HKLM\\Software\\Policies\\RosterDesk failed: timed out'),
    })
    const policy = await loadMachinePolicy(failing)
    expect(policy.problem?.message).toContain(`${POLICY_REGISTRY_KEY}: it could not be read`)
    expect(policy.problem?.detail).toContain('timed out')
    expect(failing.read).toEqual([])
  })

  it('keeps every character of a value: "Müller & Söhne, Zürich" and a Japanese profile name', async () => {
    const policy = await loadMachinePolicy(
      sources({ platform: 'win32', registry: registryFixture('international') }),
    )
    expect(policy.problem).toBeUndefined()
    expect(policy.policy?.exports?.maxRows).toBe(5000)
    expect(policy.policy?.profiles?.map((profile) => [profile.name, profile.tenantId])).toEqual([
      ['Müller & Söhne, Zürich', 'zuerich'],
      ['給与計算 東京', 'tokyo'],
    ])
  })

  it('reads the registry script’s report: a missing key, kinds by the registry’s names, DWORDs unsigned', () => {
    expect(parseRegistryReport('\uFEFF{"missing":true}\r\n')).toEqual({ kind: 'missing' })
    expect(parseRegistryReport('{"values":[]}')).toEqual({ kind: 'found', values: [] })
    const key = 'HKEY_LOCAL_MACHINE\\Software\\Policies\\RosterDesk'
    expect(
      parseRegistryReport(
        JSON.stringify({
          values: [
            { key, name: 'Odd Name', kind: 'String', data: 'a  b' },
            { key, name: 'MaxExportRows', kind: 'DWord', data: -1 },
            { key, name: 'Blob', kind: 'Binary', data: [1, 2] },
          ],
        }),
      ),
    ).toEqual({
      kind: 'found',
      values: [
        { key, name: 'Odd Name', type: 'REG_SZ', data: 'a  b' },
        { key, name: 'MaxExportRows', type: 'REG_DWORD', data: '0xffffffff' },
        { key, name: 'Blob', type: 'REG_BINARY', data: '[1,2]' },
      ],
    })
    expect(() => parseRegistryReport('{"values":[{"name":"x"}]}')).toThrow(/without its key/)
    const script = registryScript(POLICY_REGISTRY_KEY)
    expect(script).toContain("$root = 'Registry::HKEY_LOCAL_MACHINE\\Software\\Policies\\RosterDesk'")
    expect(script).toContain('[Console]::OutputEncoding = [Text.Encoding]::UTF8')
  })
})

describe('policyTextProblems (policy --check)', () => {
  it('lists every reason, and none for a valid policy', () => {
    expect(policyTextProblems(fixture('valid-policy.json'))).toEqual([])
    expect(policyTextProblems('not json')).toEqual(['the file is not JSON'])
    const reasons = policyTextProblems(fixture('invalid-policy.json'))
    expect(reasons.length).toBeGreaterThanOrEqual(4)
  })

  it('refuses a base URL without its environment and a locked field without a value', () => {
    const reasons = policyTextProblems(
      JSON.stringify({ profiles: [{ name: 'P', baseUrl: 'https://x.example', locked: ['clientId'] }] }),
    )
    expect(reasons).toEqual([
      expect.stringMatching(/^profiles\[0\]\.environment: A profile with a "baseUrl" needs/),
      'profiles[0].locked: "clientId" is locked but the profile gives no value for it.',
    ])
    expect(policyTextProblems('{ "network": { "proxyMode": "fixed" } }')).toEqual([
      'network.proxyUrl: "proxyMode": "fixed" needs "proxyUrl".',
    ])
  })

  it('refuses two profiles of one name (ignoring case), naming the second, and the policy is ignored whole', async () => {
    const text = JSON.stringify({
      profiles: [{ name: 'Acme' }, { name: 'Other' }, { name: ' ACME ', environment: 'demo' }],
      exports: { csvAllowed: false },
    })
    const reason =
      'profiles[2].name: "ACME" is the name of another profile in the policy ("Acme"); names compare ignoring case.'
    expect(policyTextProblems(text)).toEqual([reason])
    const policy = await loadMachinePolicy(sources({ files: { '/etc/rosterdesk/policy.json': text } }))
    expect(policy.policy).toBeUndefined()
    expect(policy.problem?.message).toContain(reason.replace(/\.$/, ''))
  })
})
