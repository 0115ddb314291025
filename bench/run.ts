import { writeFileSync } from 'node:fs'
import { cpus, freemem, release, totalmem, type } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3-multiple-ciphers'
import type { BenchSection } from './bench-kit'
import { scratchDir } from './bench-kit'
import { cipherSection } from './cipher-bench'
import { exportSection } from './export-bench'
import { filterMixSection } from './filter-mix-bench'
import { keystrokeSection } from './keystroke-bench'
import { lyingEnvelopeSection } from './lying-envelope-bench'
import { mainThreadSection } from './main-thread-bench'
import { nearMissSection } from './near-miss-bench'
import { querySection } from './query-bench'
import { queryProcessSection } from './query-process-bench'
import { searchStrategySection } from './search-strategy-bench'
import { syncSection } from './sync-bench'
import { writeSection } from './write-bench'

/**
 * `npm run bench [-- --only id,id] [--out FILE]`: runs every section in order and writes bench/RESULTS.md (or
 * FILE, so that one section can be measured without replacing the others' figures). A new section is one file
 * exporting a BenchSection and one line in this list.
 */
const SECTIONS: readonly BenchSection[] = [
  syncSection,
  writeSection,
  querySection,
  exportSection,
  lyingEnvelopeSection,
  searchStrategySection,
  mainThreadSection,
  queryProcessSection,
  nearMissSection,
  filterMixSection,
  keystrokeSection,
  cipherSection,
]

function machine(): string {
  const cpuList = cpus()
  const sqlite = new Database(':memory:')
  const sqliteVersion = String(sqlite.prepare('SELECT sqlite_version()').pluck().get())
  sqlite.close()
  const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`
  return [
    `- CPU: ${cpuList[0]?.model ?? 'unknown'} × ${cpuList.length} cores`,
    `- RAM: ${gib(totalmem())} (${gib(freemem())} free at start)`,
    `- OS: ${type()} ${release()} (${process.platform}/${process.arch})`,
    `- Node ${process.version}, SQLite ${sqliteVersion} (better-sqlite3)`,
  ].join('\n')
}

async function main(argv: readonly string[]): Promise<void> {
  const onlyIndex = argv.indexOf('--only')
  const only = onlyIndex >= 0 ? new Set((argv[onlyIndex + 1] ?? '').split(',')) : null
  const sections = SECTIONS.filter((section) => only === null || only.has(section.id))
  const started = new Date()
  const parts: string[] = [
    '# RosterDesk benchmarks',
    '',
    `Command: \`npm run bench${only === null ? '' : ` -- --only ${[...only].join(',')}`}\`  `,
    `Date: ${started.toISOString()}`,
    '',
    '## Machine',
    '',
    machine(),
    '',
  ]
  for (const section of sections) {
    const { dir, cleanup } = scratchDir(section.id)
    const log = (line: string) =>
      process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`)
    log(`${section.title}…`)
    try {
      parts.push(`## ${section.title}`, '', await section.run({ dir, log }), '')
    } finally {
      cleanup()
    }
  }
  parts.push(`Total bench time: ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s.`, '')
  const outIndex = argv.indexOf('--out')
  const path = outIndex >= 0 ? resolve(argv[outIndex + 1] ?? '') : join(__dirname, 'RESULTS.md')
  writeFileSync(path, parts.join('\n'))
  process.stderr.write(`[bench] wrote ${path}\n`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exit(1)
})
