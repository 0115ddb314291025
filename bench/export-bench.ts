import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import ExcelJS from 'exceljs'
import type { EmployeeRow } from '../src/shared/domain/rows'
import { openCacheDatabase } from '../src/main/core/cache/cache-database'
import { ExportService } from '../src/main/core/export/export-service'
import { inlineExportRunner } from '../src/main/core/export/inline-export-runner'
import { loadExcelJs } from '../src/main/core/export/exceljs-loader'
import { QueryEngine } from '../src/main/core/query/query-engine'
import type { BenchContext, BenchSection } from './bench-kit'
import { table, verdict } from './bench-kit'
import type { ProcessReport } from './process-report'
import { seedGeneratedCache } from './seed-cache'
import { BENCH_CACHE_KEY } from './bench-cache-key'

/**
 * Export benchmark, as a clerk runs the export: from a synced cache (the sandbox's generator committed through the
 * sync's own builder, bench/seed-cache.ts) to a closed .xlsx, every column the cache knows, in the default order
 * (last name, first name). Three ways, each in a fresh child process so its peak RSS is its own:
 *
 * - CLI, cold: `node --import tsx src/main/cli/index.ts export --db … --out …`, exactly the scheduled command;
 *   timed from the process's start to its exit (module loading, opening the cache, reading and writing included).
 *   One untimed run first fills tsx's and Node's compile caches (the CLI turns Node's on), as a clerk's first
 *   run does.
 * - Core, warm: the export service in one process, exceljs and the snapshot's index loaded by a first export;
 *   the second is timed.
 * - exceljs streaming, plain: the same rows already in memory (read from the same cache, not timed) and exceljs
 *   loaded; its WorkbookWriter as its README shows it (column definitions, one addRow().commit() per row) is
 *   timed from the first row to the file closed.
 *
 * `npm run bench -- --only export` (section id "export"); alone: `npx tsx bench/export-bench.ts [rows,rows...]`.
 */

type Variant = 'cli-cold' | 'core-warm' | 'plain-stream'

interface Measurement {
  readonly variant: Variant
  readonly rows: number
  readonly ok: boolean
  /** What the variant times (see the section's text). */
  readonly wallMs: number
  readonly peakRssMb: number
  readonly fileMb: number
  /** Runs this measurement is the median of (by wall time). */
  readonly runs: number
  readonly error?: string
}

const ROOT = resolve(__dirname, '..')
const CLI = join(ROOT, 'src/main/cli/index.ts')
const REPORT_HOOK = join(__dirname, 'process-report.ts')

/** The child's JSON line: what it timed itself (absent for the CLI, timed by process-report.ts). */
interface ChildLine {
  readonly wallMs?: number
}

/** Every column of the cache and its rows in the default order, as the CLI's export reads them. */
function cacheRows(db: string): { columns: string[]; rows: EmployeeRow[] } {
  const cache = openCacheDatabase(db, { key: BENCH_CACHE_KEY, mustExist: true })
  try {
    const queries = new QueryEngine(cache)
    const columns = queries.listColumns().map((column) => column.key)
    const rows: EmployeeRow[] = []
    for (const batch of queries.iterateRows({}, 1000)) for (const row of batch) rows.push(row)
    return { columns, rows }
  } finally {
    cache.close()
  }
}

/** exceljs as its README shows it: column definitions, bold header row, one addRow().commit() per row. */
async function plainStream(db: string, file: string): Promise<number> {
  const { columns, rows } = cacheRows(db)
  const started = performance.now()
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true })
  const sheet = workbook.addWorksheet('Employees', { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = columns.map((key) => ({
    header: key,
    key,
    width: 16,
    ...(key === 'hireDate' ? { style: { numFmt: 'yyyy-mm-dd' } } : {}),
  }))
  sheet.getRow(1).font = { bold: true }
  sheet.getRow(1).commit()
  for (const row of rows) {
    const hireDate = row['hireDate']
    sheet
      .addRow(typeof hireDate === 'string' ? { ...row, hireDate: new Date(`${hireDate}T00:00:00Z`) } : row)
      .commit()
  }
  sheet.autoFilter = { from: 'A1', to: { row: rows.length + 1, column: columns.length } }
  sheet.commit()
  await workbook.commit()
  return performance.now() - started
}

/** The export service twice in one process; the second export, everything loaded, is timed. */
async function coreWarm(db: string, file: string): Promise<number> {
  const cache = openCacheDatabase(db, { key: BENCH_CACHE_KEY, mustExist: true })
  try {
    const queries = new QueryEngine(cache)
    const service = new ExportService({
      runner: inlineExportRunner({ queries }),
      clock: { now: () => Date.now() },
      context: () => ({ environment: 'bench', tenantId: 'bench', syncedAt: null }),
    })
    const columns = queries.listColumns().map((column) => column.key)
    const exportOnce = () =>
      service.exportToFile({ request: { kind: 'view', query: {}, columns, format: 'xlsx' }, filePath: file })
    await loadExcelJs()
    await exportOnce()
    const started = performance.now()
    await exportOnce()
    return performance.now() - started
  } finally {
    cache.close()
  }
}

/** Child side: one variant, then one JSON line with what it timed. */
async function runChild(variant: Variant, db: string, file: string): Promise<void> {
  const wallMs = variant === 'plain-stream' ? await plainStream(db, file) : await coreWarm(db, file)
  const line: ChildLine = { wallMs }
  process.stdout.write(`${JSON.stringify(line)}\n`)
}

function childArgs(variant: Variant, db: string, file: string): string[] {
  const hooks = ['--import', 'tsx', '--import', REPORT_HOOK]
  return variant === 'cli-cold'
    ? [...hooks, CLI, 'export', '--db', db, '--out', file]
    : [...hooks, __filename, '--child', variant, db, file]
}

function measure(variant: Variant, rows: number, db: string, folder: string): Promise<Measurement> {
  const file = join(folder, `${variant}-${rows}.xlsx`)
  const reportFile = join(folder, `${variant}-${rows}.report.json`)
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, childArgs(variant, db, file), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ROSTERDESK_BENCH_REPORT: reportFile },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('close', (code) => {
      try {
        if (code !== 0) throw new Error(stderr.trim().split('\n').slice(-3).join(' ') || `exit code ${code}`)
        const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ProcessReport
        const line = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ChildLine
        resolvePromise({
          variant,
          rows,
          ok: true,
          wallMs: line.wallMs ?? report.exitMs,
          peakRssMb: report.peakRssMb,
          fileMb: statSync(file).size / 1_048_576,
          runs: 1,
        })
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        resolvePromise({
          variant,
          rows,
          ok: false,
          wallMs: 0,
          peakRssMb: 0,
          fileMb: 0,
          runs: 1,
          error: message.slice(0, 300),
        })
      }
      rmSync(file, { force: true })
      rmSync(reportFile, { force: true })
    })
  })
}

const LABELS: Record<Variant, string> = {
  'cli-cold': 'RosterDesk CLI `export`, cold (process start → exit)',
  'core-warm': 'RosterDesk export service, warm (second export in-process)',
  'plain-stream': 'exceljs streaming, plain (rows already in memory)',
}

function resultTable(results: ReadonlyArray<Measurement>): string {
  const plain = new Map(
    results.filter((r) => r.variant === 'plain-stream' && r.ok).map((r) => [r.rows, r.wallMs]),
  )
  const rows = results.map((result) => {
    const base = plain.get(result.rows)
    const name = [LABELS[result.variant], result.rows.toLocaleString('en-US'), String(result.runs)]
    if (!result.ok) return [...name, `failed: ${result.error ?? ''}`, '', '', '']
    return [
      ...name,
      `${(result.wallMs / 1000).toFixed(2)} s`,
      `${result.peakRssMb.toFixed(0)} MB`,
      `${result.fileMb.toFixed(1)} MB`,
      base === undefined ? '' : `${(base / result.wallMs).toFixed(2)}×`,
    ]
  })
  return table(['Variant', 'Rows', 'Runs', 'Time', 'Peak RSS', 'File', 'Speed vs plain'], rows)
}

function verdicts(results: ReadonlyArray<Measurement>): string[] {
  const find = (variant: Variant, rows: number): Measurement | undefined =>
    results.find((r) => r.variant === variant && r.rows === rows && r.ok)
  const lines: string[] = []
  for (const [rows, memoryTarget] of [
    [100_000, 200],
    [1_000_000, 400],
  ] as const) {
    const cold = find('cli-cold', rows)
    const plain = find('plain-stream', rows)
    const size = rows.toLocaleString('en-US')
    if (cold === undefined) {
      if (results.some((r) => r.rows === rows))
        lines.push(`- ${size} rows: the CLI export failed: ${verdict(false)}`)
      continue
    }
    if (plain !== undefined) {
      const ratio = plain.wallMs / cold.wallMs
      lines.push(
        `- ${size} rows, as the clerk runs it (cold CLI): ${ratio.toFixed(2)}× plain exceljs streaming; target ≥ 2×: ${verdict(ratio >= 2)}`,
      )
    }
    lines.push(
      `- ${size} rows: CLI peak RSS ${cold.peakRssMb.toFixed(0)} MB; target < ${memoryTarget} MB: ${verdict(cold.peakRssMb < memoryTarget)}`,
    )
  }
  return lines
}

/** The run with the median time; a failed run wins, so a failure is never hidden by a retry. */
function median(runs: ReadonlyArray<Measurement>): Measurement {
  const failed = runs.find((run) => !run.ok)
  if (failed !== undefined) return failed
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs)
  const middle = sorted[Math.floor(sorted.length / 2)] as Measurement
  return { ...middle, runs: runs.length, peakRssMb: Math.max(...runs.map((run) => run.peakRssMb)) }
}

/**
 * Seeds a cache per size, then runs every variant and returns the Markdown for RESULTS.md. Variants run one at a
 * time (they share two cores) and, up to 100,000 rows, three times interleaved, reporting the median run (and the
 * highest peak RSS).
 */
export async function exportBench(
  context: BenchContext,
  sizes: ReadonlyArray<number> = [100_000, 1_000_000],
): Promise<string> {
  const load = loadavg()[0] ?? 0
  const results: Measurement[] = []
  const variants: Variant[] = ['plain-stream', 'cli-cold', 'core-warm']
  for (const rows of sizes) {
    const db = join(context.dir, `cache-${rows}.sqlite`)
    context.log(`export: seeding a cache of ${rows.toLocaleString('en-US')} employees`)
    const cache = openCacheDatabase(db, { key: BENCH_CACHE_KEY })
    await seedGeneratedCache(cache, rows)
    cache.close()
    // tsx compiles each source file once into its cache; a clerk's scheduled runs find it filled.
    if (rows === sizes[0]) await measure('cli-cold', rows, db, context.dir)
    const repeats = rows <= 100_000 ? 3 : 1
    const runs = new Map<Variant, Measurement[]>(variants.map((variant) => [variant, []]))
    for (let round = 0; round < repeats; round++) {
      for (const variant of variants) {
        context.log(
          `export: ${LABELS[variant]}, ${rows.toLocaleString('en-US')} rows, run ${round + 1}/${repeats}`,
        )
        runs.get(variant)?.push(await measure(variant, rows, db, context.dir))
      }
    }
    for (const variant of variants) results.push(median(runs.get(variant) ?? []))
    rmSync(`${db}.snapshots`, { recursive: true, force: true })
    rmSync(db, { force: true })
  }
  const loadAfter = loadavg()[0] ?? 0
  return [
    `From a synced cache to a closed .xlsx, as the clerk runs it: the sandbox's generator (13 columns: UUIDs, ` +
      `names in many scripts, status, employee number, e-mail, department, job title, hire date, salary, pay ` +
      `cycle, cost centre, manager) committed through the sync's own builder (bench/seed-cache.ts), every column, ` +
      `default order (last name, first name). Each variant runs in a child process of its own; peak RSS is that ` +
      `process's high-water mark (VmHWM), module loading included, and includes tsx, through which the CLI runs ` +
      `(\`npm run cli\`). **CLI, cold**: \`node --import tsx src/main/cli/index.ts export --db … --out …\`, timed ` +
      `from the process's start to its exit (tsx's and Node's compile caches filled by one untimed run first, as on ` +
      `a clerk's machine after the first run). **Core, warm**: the export service in one process; a first export loads ` +
      `exceljs and the snapshot's index, the second is timed. **Plain streaming**: the same rows read from the ` +
      `same cache into memory first (not timed; its peak RSS includes them), exceljs loaded, then its ` +
      `WorkbookWriter as its README shows it (column definitions, one addRow().commit() per row, default ` +
      `compression) timed from the first row to the closed file; it writes no About sheet. Time is the median run ` +
      `where there are three. Load average ${load.toFixed(2)} at the start, ${loadAfter.toFixed(2)} at the end: ` +
      `other work shares the two cores, so compare within a run.`,
    '',
    resultTable(results),
    '',
    ...verdicts(results),
  ].join('\n')
}

/** The export section of `npm run bench`. */
export const exportSection: BenchSection = {
  id: 'export',
  title: 'Export from the cache to XLSX, as the clerk runs it (100,000 and 1,000,000 rows)',
  run: (context) => exportBench(context),
}

if (require.main === module) {
  const [flag, variant, db, file] = process.argv.slice(2)
  if (flag === '--child') {
    runChild(variant as Variant, db as string, file as string).catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      process.exit(1)
    })
  } else {
    const sizes = flag === undefined ? undefined : flag.split(',').map(Number)
    const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-export-bench-'))
    const log = (line: string): void => void process.stderr.write(`${line}\n`)
    exportBench({ dir, log }, sizes)
      .finally(() => rmSync(dir, { recursive: true, force: true }))
      .then(
        (markdown) => process.stdout.write(`${markdown}\n`),
        (error: unknown) => {
          process.stderr.write(`${String(error)}\n`)
          process.exit(1)
        },
      )
  }
}
