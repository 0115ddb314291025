import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { logsFolder, openFileLog } from '../../src/main/core/log/file-log'
import { policySchema } from '../../src/main/core/policy/policy-schema'
import { MemorySecretStore } from '../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend } from '../../src/main/core/settings/settings-store'
import { sandbox, startApp, syncNow, tempDir } from '../helpers/app-core-under-test'
import { TEST_CACHE_KEY, writeTestKeyFile } from '../helpers/test-cache-key'
import { startCliProcess } from '../helpers/cli-process'
import { PYTHON } from '../helpers/xlsx-reader'
import { writeSettingsFile } from '../helpers/settings-file'

/** Every entry of a zip as Python's zipfile reads it (a reader the project did not write): name → text. */
function unzip(file: string): Map<string, string> {
  const script =
    'import json, sys, zipfile\n' +
    'z = zipfile.ZipFile(sys.argv[1])\n' +
    'assert z.testzip() is None\n' +
    'print(json.dumps({i.filename: z.read(i).decode("utf-8") for i in z.infolist()}))\n'
  const out = execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8' })
  return new Map(Object.entries(JSON.parse(out) as Record<string, string>))
}

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjbGVyazQyIn0.c2lnbmF0dXJlOTk5'
const BARE_TOKEN = 'rt_7Qk2Lm9Xp4Vz8Nw3Hs6Jd1'
const PROXY_PASSWORD = 'Pr0xyPassw0rd!'
const SAVED_SEARCH = 'Zanzibar-leavers-q4'

/**
 * Issue 35's acceptance: employee values (in the caches, by a real sync of the sandbox, and in log lines in the
 * shapes a leak takes), a token, a client secret, a proxy password and a saved search seeded into the logs,
 * settings and caches; diagnostics written by the app core and by the CLI (a process of its own), unzipped by
 * Python's zipfile, hold none of them, and do hold the versions, the policy, the runs and the connection report.
 */
describe('Save diagnostics (issue 35, points 2–4)', () => {
  it('leaves every seeded value out of the app’s and the CLI’s file, and keeps what IT needs', async () => {
    const demo = await sandbox({ size: 60, seed: 35 })
    const dataDir = tempDir()
    const { clientSecret } = demo.credentials
    const policyValue = {
      profiles: [
        {
          name: 'Payroll',
          environment: 'staging',
          baseUrl: demo.baseUrl,
          clientId: demo.credentials.clientId,
          clientSecret,
          redirectUri: demo.credentials.redirectUri,
          tenantId: demo.credentials.tenantId,
          locked: ['baseUrl'],
        },
      ],
      exports: { maxRows: 5000 },
    }
    const policyFile = join(dataDir, 'policy.json')
    writeFileSync(policyFile, JSON.stringify(policyValue))
    const policy = { policy: policySchema.parse(policyValue), source: policyFile, problem: undefined }
    const backend = new MemoryKeyValueBackend()
    const app = await startApp(demo, dataDir, backend, new MemorySecretStore(), { policy })
    // The app's key is also the CLI's (the key file it adopts, decision 064), so the CLI reads the runs too.
    writeTestKeyFile(dataDir)

    // The caches: a sync of the policy's profile (active at a first start): 50 of its 60 employees' values.
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete' })
    const { rows } = (await app.invoke('employees:query', { limit: 100 })) as {
      rows: Array<Record<string, unknown>>
    }
    const employeeValues = [
      ...new Set(
        rows.flatMap((row) =>
          ['UUID', 'email', 'lastName', 'annualSalary', 'employeeNumber'].map((field) => String(row[field])),
        ),
      ),
    ]
      .filter((value) => value.length >= 6)
      .slice(0, 50)
    expect(employeeValues).toHaveLength(50)

    // The settings: a saved search (the settings file the CLI reads holds it too).
    await app.invoke('views:save', 'Leavers', { text: SAVED_SEARCH, statuses: [], payCycleIds: [] }, false)
    writeSettingsFile(dataDir, backend)

    // The logs: through the real log writer, and appended raw as lines that slipped past it would be.
    const logs = logsFolder(dataDir)
    const { logger } = openFileLog({ logsDir: logs, console: false })
    logger.info(`Token answer {"access_token":"${TOKEN}","refresh_token":"${BARE_TOKEN}"}`)
    logger.warn(`Proxy http://clerk:${PROXY_PASSWORD}@proxy.example:3128 refused`)
    const raw = [
      `Sync page held ${employeeValues.filter((v) => /^[0-9a-f-]{36}$/.test(v) || v.includes('@')).join(' ')}`,
      `Token request client_secret=${clientSecret} Authorization: Bearer ${TOKEN}`,
      `Refresh ${BARE_TOKEN} via https://clerk:${PROXY_PASSWORD}@proxy.example:3128`,
      'The core process stopped unexpectedly',
      'The core process was started again',
    ]
    mkdirSync(logs, { recursive: true })
    const at = new Date().toISOString()
    appendFileSync(join(logs, 'main.log'), raw.map((line) => `${at} WARN  ${line}\n`).join(''))
    appendFileSync(join(logs, 'cli.log'), `${at} ERROR Sync failed: ${raw[1]}\n`)

    // From the app core: Help → Save diagnostics… with the save dialog answering a path.
    const appFile = join(dataDir, 'app diagnostics.zip')
    app.savePath.next = appFile
    const saved = (await app.invoke('diagnostics:save')) as { status: string; replaced: number }
    expect(saved).toMatchObject({ status: 'written', fileName: 'app diagnostics.zip' })
    expect(saved.replaced).toBeGreaterThan(0)
    expect(await app.invoke('diagnostics:show-in-folder')).toBe(true)

    // From the CLI, a process of its own, over the same data folder and policy, checking the policy's profile.
    const cliFile = join(dataDir, 'cli diagnostics.zip')
    const env = { ROSTERDESK_USER_DATA_DIR: dataDir, ROSTERDESK_POLICY_FILE: policyFile }
    const cli = await startCliProcess(['diagnostics', '--out', cliFile, '--profile', 'payroll'], env).done
    expect(cli).toMatchObject({ code: 0, stdout: `${cliFile}\n` })
    const bad = await startCliProcess(['diagnostics', '--out', join(dataDir, 'x.txt')], env).done
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(`--out: "${join(dataDir, 'x.txt')}" must end in .zip.`)

    const secrets = [
      TOKEN,
      BARE_TOKEN,
      clientSecret,
      PROXY_PASSWORD,
      SAVED_SEARCH,
      TEST_CACHE_KEY.revealHex(),
      ...employeeValues,
    ]
    for (const file of [appFile, cliFile]) {
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const entries = unzip(file)
      const all = [...entries.values()].join('\n')
      expect(secrets.filter((value) => all.includes(value))).toEqual([])
      expect([...entries.keys()]).toEqual(
        expect.arrayContaining([
          'README.txt',
          'summary.txt',
          'policy.json',
          'profiles.json',
          'sync-runs.json',
          'connection-report.txt',
          'crashes.txt',
          'logs/main.log',
          'logs/cli.log',
        ]),
      )
      expect(entries.get('summary.txt')).toMatch(
        /^RosterDesk 0\.1\.0 .*\nWritten: .*\nElectron: .*\nChromium: .*\nNode: 22\./,
      )
      expect(JSON.parse(entries.get('policy.json')!)).toMatchObject({
        source: policyFile,
        policy: { profiles: [{ name: 'Payroll', hasClientSecret: true, baseUrl: demo.baseUrl }] },
      })
      const runs = JSON.parse(entries.get('sync-runs.json')!) as Array<{ profile: string; runs: unknown[] }>
      expect(runs.find((r) => r.profile === 'Payroll')?.runs).toEqual([
        expect.objectContaining({
          status: 'complete',
          employees: 60,
          changes: { added: 60, removed: 0, changed: 0 },
        }),
      ])
      expect(entries.get('connection-report.txt')).toMatch(
        /^RosterDesk connection check \((app|command line)\)/,
      )
      expect(entries.get('crashes.txt')).toContain('The core process was started again')
      expect(entries.get('README.txt')).toMatch(/Values replaced by a second check .*: [1-9]\d* \(/)
    }
    // Each checked the profile against the sandbox: the app over its fetch, the CLI over Node's, DNS to the list.
    expect(unzip(appFile).get('connection-report.txt')).toMatch(
      /^RosterDesk connection check \(app\).*\nService: .* \(profile Payroll\)\n/,
    )
    expect(unzip(cliFile).get('connection-report.txt')).toMatch(
      /^RosterDesk connection check \(command line\).*\nService: .* \(profile Payroll\)\n/,
    )
  })
})
