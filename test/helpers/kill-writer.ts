/**
 * A child process for the kill -9 tests (test/e2e/kill-writers.test.ts): rewrites one file in a loop through
 * RosterDesk's own write path, alternating between two known versions, until it is killed. It prints "ready"
 * once the first version is complete, so the parent knows that a file must exist from then on.
 *
 *   node --import tsx test/helpers/kill-writer.ts <secrets|token|settings|export> <path>
 */
import { dirname } from 'node:path'
import Conf from 'conf'
import { writeTokenFile } from '../../src/main/core/auth/token-file'
import { writeFileDurably } from '../../src/main/core/durable-fs'
import { arrayRowSource } from '../../src/main/core/export/array-row-source'
import { writeExport } from '../../src/main/core/export/export-engine'
import { SettingsStore } from '../../src/main/core/settings/settings-store'
import { killWriterVersion, KILL_WRITER_EXPORT_COLUMNS, KILL_WRITER_ABOUT } from './kill-writer-versions'

const [kind, path] = process.argv.slice(2)
if (kind === undefined || path === undefined) throw new Error('usage: kill-writer <kind> <path>')

async function writeVersion(generation: number): Promise<void> {
  const version = killWriterVersion(kind as string, generation % 2)
  switch (kind) {
    case 'secrets':
      return writeFileDurably(path as string, version.text)
    case 'token':
      return writeTokenFile(path as string, version.token)
    case 'settings':
      settings?.update(version.settings)
      return
    case 'export':
      await writeExport({
        source: arrayRowSource(version.rows, 500),
        columns: KILL_WRITER_EXPORT_COLUMNS,
        about: KILL_WRITER_ABOUT,
        filePath: path as string,
        format: 'csv',
      })
      return
    default:
      throw new Error(`unknown kind ${kind}`)
  }
}

/** Settings go through electron-store's own write path: it is Conf with Electron's folders. */
function openSettings(): SettingsStore {
  const store = new Conf<Record<string, unknown>>({
    cwd: dirname(path as string),
    configName: 'settings',
    clearInvalidConfig: false,
  })
  return new SettingsStore({ get: (key) => store.get(key), set: (key, value) => store.set(key, value) })
}
const settings = kind === 'settings' ? openSettings() : undefined

async function main(): Promise<void> {
  await writeVersion(0)
  process.stdout.write('ready\n')
  for (let generation = 1; ; generation++) await writeVersion(generation)
}
void main()
