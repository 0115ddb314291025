import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tokenFileSchema } from '../../src/main/core/auth/token-file'
import { childProgramArgs } from '../helpers/cli-process'
import { killWriterVersion } from '../helpers/kill-writer-versions'
import { makeTempDir } from '../helpers/cache-test-helpers'

const ROOT = resolve(__dirname, '..', '..')
const ITERATIONS = 3

/**
 * Starts the writer child, waits until its first version is complete, lets it rewrite for a random moment and
 * kills it with SIGKILL (no handler runs, as in a power cut as far as the process is concerned).
 */
async function killMidWrite(kind: string, path: string): Promise<void> {
  const child = spawn(process.execPath, [...childProgramArgs('kill-writer'), kind, path], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  await new Promise<void>((ready, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('ready')) ready()
    })
    child.once('exit', () => fail(new Error(`the writer exited before it was ready: ${stderr}`)))
  })
  await new Promise((wait) => setTimeout(wait, 5 + Math.random() * 250))
  child.kill('SIGKILL')
  await exited
}

/** Which of the two versions the file holds; fails on anything else (a torn, empty or mixed file). */
function versionOf(kind: string, path: string): number {
  const text = readFileSync(path, 'utf8')
  for (const which of [0, 1]) {
    const version = killWriterVersion(kind, which)
    switch (kind) {
      case 'secrets':
        if (text === version.text) return which
        break
      case 'token': {
        const parsed = tokenFileSchema.parse(JSON.parse(text))
        if (JSON.stringify(parsed) === JSON.stringify(version.token)) return which
        break
      }
      case 'settings': {
        const stored = JSON.parse(text) as {
          profiles: { profiles: Array<{ settings: Record<string, unknown> }> }
        }
        const active = stored.profiles.profiles[0]?.settings
        if (
          active?.['pageSize'] === version.settings.pageSize &&
          active['tenantId'] === version.settings.tenantId
        )
          return which
        break
      }
      case 'export': {
        const lines = text.replace(/^\uFEFF/, '').split('\r\n')
        expect(lines.at(-1)).toBe('')
        const dataRows = lines.slice(1, -1)
        if (
          dataRows.length === version.rows.length &&
          dataRows.at(-1)?.includes(String(version.rows.at(-1)?.['lastName']))
        )
          return which
        break
      }
    }
  }
  throw new Error(`${kind}: ${path} is neither version (${text.length} characters)`)
}

describe('kill -9 while a file is rewritten: the old or the new file, never a torn one', () => {
  let dir: string
  let cleanup: () => void
  beforeEach(() => ({ dir, cleanup } = makeTempDir('rosterdesk-e2e-kill-')))
  afterEach(() => cleanup())

  const cases: ReadonlyArray<readonly [string, string]> = [
    ['secrets', 'secrets.json'],
    ['token', 'tokens.json'],
    ['settings', 'settings.json'],
    ['export', 'Employees.csv'],
  ]
  for (const [kind, name] of cases) {
    it(`${kind}: ${ITERATIONS} kills at random moments`, async () => {
      const path = join(dir, name)
      const seen = new Set<number>()
      for (let i = 0; i < ITERATIONS; i++) {
        await killMidWrite(kind, path)
        expect(existsSync(path)).toBe(true)
        seen.add(versionOf(kind, path))
      }
      // Whatever debris a kill leaves (a hidden temp file) never has the final name.
      for (const entry of readdirSync(dir)) {
        expect(entry === name || entry.startsWith('.') || entry.includes('.tmp')).toBe(true)
      }
      expect(seen.size).toBeGreaterThan(0)
    }, 120_000)
  }
})
