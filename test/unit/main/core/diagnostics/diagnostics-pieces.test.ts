import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  coreRestartsFor,
  crashSummariesFor,
  entriesSince,
  logCutoff,
  readRecentLogs,
} from '../../../../../src/main/core/diagnostics/diagnostics-logs'
import { DiagnosticsRedactor } from '../../../../../src/main/core/diagnostics/diagnostics-redact'
import { withoutCredentials } from '../../../../../src/main/core/diagnostics/diagnostics-parts'
import { zipArchive } from '../../../../../src/main/core/diagnostics/zip-file'
import { PYTHON } from '../../../../helpers/xlsx-reader'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-diag-'))
  dirs.push(dir)
  return dir
}

describe('zipArchive', () => {
  it('writes a zip Python’s zipfile reads back whole: names, bytes, deflated and stored entries, 0600 modes', () => {
    const file = join(temp(), 'a.zip')
    const text = 'line of a log\n'.repeat(500)
    const tiny = Buffer.from([0x00, 0xff])
    writeFileSync(
      file,
      zipArchive(
        [
          { name: 'README.txt', data: Buffer.from(text) },
          { name: 'logs/main.1.log', data: tiny },
          { name: 'über.txt', data: Buffer.from('ü') },
        ],
        new Date(2026, 11, 8, 9, 12, 30),
      ),
    )
    const script =
      'import json, sys, zipfile\n' +
      'z = zipfile.ZipFile(sys.argv[1])\n' +
      'assert z.testzip() is None\n' +
      'print(json.dumps([[i.filename, z.read(i).hex(), i.compress_type, i.external_attr >> 16, list(i.date_time)] for i in z.infolist()]))\n'
    const read = JSON.parse(execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8' })) as unknown[][]
    expect(read).toEqual([
      ['README.txt', Buffer.from(text).toString('hex'), 8, 0o100600, [2026, 12, 8, 9, 12, 30]],
      ['logs/main.1.log', '00ff', 0, 0o100600, [2026, 12, 8, 9, 12, 30]],
      ['über.txt', Buffer.from('ü').toString('hex'), 0, 0o100600, [2026, 12, 8, 9, 12, 30]],
    ])
  })
})

describe('DiagnosticsRedactor', () => {
  it('replaces credentials, tokens, e-mails, UUIDs and IBANs, and counts them by kind', () => {
    const redactor = new DiagnosticsRedactor()
    const out = redactor.text(
      [
        'proxy http://jane:hunter2@proxy.example:3128 said 407',
        'password=hunter2 client_secret: s3cr3t "refreshToken": "abc"',
        'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature_1',
        'opaque Xk29aPq81LmZ0vB7nT4wR2',
        'row of 6F9619FF-8B86-D011-B42D-00C04FC964FF for anna.muller@example.co.uk',
        'pay to DE89 3704 0044 0532 0130 00 and GB29NWBK60161331926819',
      ].join('\n'),
    )
    expect(out).toBe(
      [
        // The log's own rules (log/redact.ts) run first: an address's credentials are theirs, not counted here.
        'proxy http://[redacted]@proxy.example:3128 said 407',
        'password=[credential] client_secret: [credential] "refreshToken": "[redacted]"',
        'jwt [token]',
        'opaque [token]',
        'row of [UUID] for [e-mail]',
        'pay to [IBAN] and [IBAN]',
      ].join('\n'),
    )
    expect(Object.fromEntries(redactor.replaced())).toEqual({
      credential: 2,
      token: 2,
      'e-mail': 1,
      UUID: 1,
      IBAN: 2,
    })
    expect(redactor.total()).toBe(8)
  })

  it('leaves what IT needs: times, versions, paths, fingerprints, JSON booleans, and the values it is told to keep', () => {
    const keep = '3fa85f64-5717-4562-b3fc-2c963f66afa6'
    const redactor = new DiagnosticsRedactor(new Set([keep]))
    const text = [
      '2026-12-08T09:12:30.123Z INFO  RosterDesk 1.4.2 on Electron 45.4.1, Chromium 140.0.7339.41',
      'Cache at /home/clerk/.config/RosterDesk/profiles/p2/employees.sqlite',
      'SHA-256 AB:CD:EF:01:23:45:67:89',
      `"hasClientSecret": true, "tenant": "${keep}"`,
      'Sync run 12 ended: 4,812 employees in 3.2 s',
    ].join('\n')
    expect(redactor.text(text)).toBe(text)
    expect(redactor.total()).toBe(0)
  })
})

describe('the logs a diagnostics file holds', () => {
  const now = new Date('2026-12-08T09:00:00Z')

  it('keeps today’s and the last 7 days’ entries, continuation lines with their entry', () => {
    const cutoff = logCutoff(now)
    expect(new Date(cutoff).toISOString()).toBe('2026-12-01T00:00:00.000Z')
    const text = [
      '2026-11-30T23:59:59.999Z ERROR old',
      '  at old frame',
      '2026-12-01T00:00:00.000Z WARN  kept',
      '  at kept frame',
      '2026-12-08T08:00:00.000Z INFO  today',
    ].join('\n')
    expect(entriesSince(text, cutoff)).toBe(
      ['2026-12-01T00:00:00.000Z WARN  kept', '  at kept frame', '2026-12-08T08:00:00.000Z INFO  today'].join(
        '\n',
      ),
    )
  })

  it('reads main.log, its older copies (oldest first) and cli.log, skipping files last written before the cutoff; finds crashes and restarts', () => {
    const dir = temp()
    const line = (text: string) => `2026-12-07T10:00:00.000Z ERROR ${text}\n`
    writeFileSync(join(dir, 'main.log'), line('The core process was started again'))
    writeFileSync(
      join(dir, 'main.1.log'),
      line('Renderer crashed (render-process-gone: crashed, exit code 11)'),
    )
    writeFileSync(join(dir, 'main.2.log'), line('The core process stopped unexpectedly'))
    writeFileSync(join(dir, 'main.3.log'), line('stale'))
    writeFileSync(join(dir, 'cli.log'), line('Sync failed'))
    writeFileSync(join(dir, 'notes.txt'), 'not a log')
    const old = new Date('2026-11-20T00:00:00Z')
    utimesSync(join(dir, 'main.3.log'), old, old)
    const logs = readRecentLogs(dir, now)
    expect(logs.map((log) => log.name)).toEqual(['cli.log', 'main.2.log', 'main.1.log', 'main.log'])
    expect(crashSummariesFor(logs)).toEqual([
      line('Renderer crashed (render-process-gone: crashed, exit code 11)').trimEnd(),
    ])
    expect(coreRestartsFor(logs)).toEqual([
      line('The core process stopped unexpectedly').trimEnd(),
      line('The core process was started again').trimEnd(),
    ])
    expect(readRecentLogs(join(dir, 'missing'), now)).toEqual([])
  })
})

it('withoutCredentials drops an address’s user name and password', () => {
  expect(withoutCredentials('http://jane:pw@proxy.example:3128/')).toBe('http://proxy.example:3128/')
  expect(withoutCredentials('http://proxy.example:3128')).toBe('http://proxy.example:3128')
})
