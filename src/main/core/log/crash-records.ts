import {
  closeSync,
  type Dirent,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { mkdirOwnerOnly, OWNER_FILE_MODE } from '../owner-only'
import { fsyncDirectory } from '../durable-fs'

/**
 * Crashes kept on the machine (issue 35, point 1; decision 066). When Electron tells the main process that the
 * window's renderer or the core's utility process went (`render-process-gone`, `child-process-gone`), the shell
 * records it here at once (`recordCrash`); Crashpad writes a dump of the process's memory into
 * `app.getPath('crashDumps')` on its own. At the next start `summariseCrashesAtStart` deletes dumps older than
 * DUMP_KEEP_DAYS, turns each recorded crash, and each new dump no recorded crash accounts for (a crash of main
 * itself leaves only a dump), into one summary, and says whether the clerk is to be told. The dumps themselves are
 * never copied anywhere. `readCrashSummaries` is what a diagnostics file reads.
 *
 * The file (crashes.json in the data folder, 0600) is written by main only, whole, through a part file: a crash
 * record survives main's own end soon after. It holds no personal data: process, time, versions, reason, exit
 * code and the dump's file name.
 */

export const CRASH_RECORDS_FILE = 'crashes.json'
/** Raw dumps hold process memory (employee data, tokens): deleted at the first start after this many days. */
export const DUMP_KEEP_DAYS = 14
/** The newest summaries kept in the file (older ones stay in the log). */
export const KEEP_SUMMARIES = 50
/**
 * A dump belongs to a recorded crash of a process that dumps when its last change is this close to the crash's
 * time: Crashpad's handler writes it while Electron reports the process gone (shortly before or after).
 */
const DUMP_MATCH_BEFORE_MS = 30_000
const DUMP_MATCH_AFTER_MS = 120_000
/** Crashpad's report files (crashpad/client/crash_report_database*.cc: `<uuid>.dmp` in new/, pending/, completed/). */
const DUMP_EXTENSION = '.dmp'

/** Which process went: the window's renderer, the core's utility process, or one that left only a dump. */
export type CrashedProcess = 'renderer' | 'core' | 'dump-only'

/** What Electron said when a process went, recorded at that moment by the running main process. */
export interface CrashEvent {
  readonly process: Exclude<CrashedProcess, 'dump-only'>
  /** ISO time. */
  readonly at: string
  /** Electron's `reason` (render-process-gone / child-process-gone details): crashed, killed, oom, … */
  readonly reason: string
  /** Electron's `exitCode`: the exit code, or on macOS and Linux the signal's number for a killed process. */
  readonly exitCode: number
  readonly appVersion: string
  readonly electronVersion: string
}

/** One crash as the log, the clerk's notice and a diagnostics file read it. */
export interface CrashSummary {
  readonly process: CrashedProcess
  /** ISO time: Electron's event's, or the dump's last change for a dump only. */
  readonly at: string
  /** Electron's reason, or `dump-only`. */
  readonly reason: string
  readonly exitCode?: number
  readonly appVersion: string
  readonly electronVersion: string
  /** The dump's file name in crashDumps, when one was found (never its content). */
  readonly dump?: string
}

interface CrashFile {
  readonly version: 1
  /** The versions of the run that last started: a dump-only crash is put down to them. */
  readonly lastRun?: { readonly appVersion: string; readonly electronVersion: string }
  /** Recorded crashes not summarised yet (this run's, or the previous one's until the next start). */
  readonly pending: readonly CrashEvent[]
  readonly summaries: readonly CrashSummary[]
  /** The dumps' file names already accounted for. */
  readonly seenDumps: readonly string[]
}

const EMPTY: CrashFile = { version: 1, pending: [], summaries: [], seenDumps: [] }

export function crashRecordsPath(dataDir: string): string {
  return join(dataDir, CRASH_RECORDS_FILE)
}

/** Records what Electron said about a process that went. Never throws: a crash record must not add a failure. */
export function recordCrash(dataDir: string, event: CrashEvent): boolean {
  try {
    const file = readFile(dataDir)
    writeFile(dataDir, { ...file, pending: [...file.pending, event] })
    return true
  } catch {
    return false
  }
}

export interface CrashStartOptions {
  readonly dataDir: string
  /** `app.getPath('crashDumps')`. */
  readonly dumpsDir: string
  readonly now: number
  /** This run's versions, kept for the next start's dump-only crashes. */
  readonly appVersion: string
  readonly electronVersion: string
}

export interface CrashStart {
  /** The crashes since the last start, oldest first: one log line each (crashSummaryLine). */
  readonly summaries: readonly CrashSummary[]
  /** The newest one's time (ISO), for the clerk's notice; absent when nothing crashed. */
  readonly noticeAt?: string
  /** Dumps deleted for being older than DUMP_KEEP_DAYS. */
  readonly deletedDumps: number
}

/**
 * At start, before this run can crash: old dumps deleted, each recorded crash and each new dump no recorded crash
 * accounts for summarised, the file rewritten with this run's versions. Once per crash: a crash summarised here
 * is never returned again, so the clerk is told once.
 */
export function summariseCrashesAtStart(options: CrashStartOptions): CrashStart {
  const file = readFile(options.dataDir)
  const keepAfter = options.now - DUMP_KEEP_DAYS * 24 * 60 * 60 * 1000
  let deletedDumps = 0
  const dumps: Array<{ name: string; at: number }> = []
  for (const dump of listDumps(options.dumpsDir)) {
    if (dump.at < keepAfter) deletedDumps += deleteDump(options.dumpsDir, dump.path) ? 1 : 0
    else dumps.push({ name: basename(dump.path), at: dump.at })
  }
  const seen = new Set(file.seenDumps)
  const unclaimed = dumps.filter((dump) => !seen.has(dump.name)).sort((a, b) => a.at - b.at)
  const summaries: CrashSummary[] = file.pending.map((event) => {
    const at = Date.parse(event.at)
    const index = unclaimed.findIndex(
      (dump) => dump.at >= at - DUMP_MATCH_BEFORE_MS && dump.at <= at + DUMP_MATCH_AFTER_MS,
    )
    const [dump] = index < 0 ? [] : unclaimed.splice(index, 1)
    return { ...event, ...(dump === undefined ? {} : { dump: dump.name }) }
  })
  const earlier = file.lastRun ?? { appVersion: options.appVersion, electronVersion: options.electronVersion }
  for (const dump of unclaimed) {
    summaries.push({
      process: 'dump-only',
      at: new Date(dump.at).toISOString(),
      reason: 'dump-only',
      ...earlier,
      dump: dump.name,
    })
  }
  summaries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
  writeFile(options.dataDir, {
    version: 1,
    lastRun: { appVersion: options.appVersion, electronVersion: options.electronVersion },
    pending: [],
    summaries: [...file.summaries, ...summaries].slice(-KEEP_SUMMARIES),
    seenDumps: dumps.map((dump) => dump.name),
  })
  const newest = summaries.at(-1)
  return { summaries, deletedDumps, ...(newest === undefined ? {} : { noticeAt: newest.at }) }
}

/**
 * The crashes this data folder knows, oldest first: those summarised at earlier starts and those recorded since
 * this run started. For a diagnostics file (issue 35, point 2): no personal data, no dump content. Never throws.
 */
export function readCrashSummaries(dataDir: string): readonly CrashSummary[] {
  try {
    const file = readFile(dataDir)
    return [...file.summaries, ...file.pending]
  } catch {
    return []
  }
}

const PROCESS_NAMES: Record<CrashedProcess, string> = {
  renderer: 'the window (renderer process)',
  core: 'the core process (utility process)',
  'dump-only': 'the main process or another process Electron did not report (a crash dump only)',
}

/** The log's line for one crash: which process, when, the app and Electron versions, Electron's reason. */
export function crashSummaryLine(summary: CrashSummary): string {
  const code = summary.exitCode === undefined ? '' : ` (exit code ${summary.exitCode})`
  const reason = summary.reason === 'dump-only' ? 'no reason given' : `${summary.reason}${code}`
  const dump = summary.dump === undefined ? 'no dump' : `dump ${summary.dump}`
  return `Crash: ${PROCESS_NAMES[summary.process]} went at ${summary.at}; RosterDesk ${summary.appVersion}, Electron ${summary.electronVersion}; reason: ${reason}; ${dump}`
}

function readFile(dataDir: string): CrashFile {
  let text: string
  try {
    text = readFileSync(crashRecordsPath(dataDir), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY
    throw error
  }
  try {
    const parsed = JSON.parse(text) as Partial<CrashFile> | null
    if (parsed === null || typeof parsed !== 'object' || parsed.version !== 1) return EMPTY
    return {
      ...EMPTY,
      ...parsed,
      pending: Array.isArray(parsed.pending) ? parsed.pending : [],
      summaries: Array.isArray(parsed.summaries) ? parsed.summaries : [],
      seenDumps: Array.isArray(parsed.seenDumps) ? parsed.seenDumps : [],
    }
  } catch {
    // A damaged file (a power cut): started again, as nothing in it is needed to run.
    return EMPTY
  }
}

/** Written whole through a part file, synchronously (0600), so a record survives the process ending next. */
function writeFile(dataDir: string, file: CrashFile): void {
  const path = crashRecordsPath(dataDir)
  mkdirOwnerOnly(dirname(path))
  const part = `${path}.${process.pid}.part`
  const handle = openSync(part, 'w', OWNER_FILE_MODE)
  try {
    writeSync(handle, JSON.stringify(file))
    fsyncSync(handle)
  } finally {
    closeSync(handle)
  }
  renameSync(part, path)
  fsyncDirectory(dirname(path))
}

/** Crashpad's `.dmp` files under crashDumps (new/, pending/, completed/, or reports/ on Windows), with their times. */
function listDumps(dumpsDir: string, depth = 0): Array<{ path: string; at: number }> {
  let entries: Dirent[]
  try {
    entries = readdirSync(dumpsDir, { withFileTypes: true })
  } catch {
    return []
  }
  return entries.flatMap((entry) => {
    const path = join(dumpsDir, entry.name)
    if (entry.isDirectory()) return depth < 2 ? listDumps(path, depth + 1) : []
    if (!entry.isFile() || !entry.name.endsWith(DUMP_EXTENSION)) return []
    try {
      return [{ path, at: statSync(path).mtimeMs }]
    } catch {
      return []
    }
  })
}

/** Deletes a dump with its Crashpad side files (`<uuid>.meta` beside it, `attachments/<uuid>/`). */
function deleteDump(dumpsDir: string, path: string): boolean {
  const id = basename(path, DUMP_EXTENSION)
  try {
    rmSync(path, { force: true })
    rmSync(join(dirname(path), `${id}.meta`), { force: true })
    rmSync(join(dumpsDir, 'attachments', id), { recursive: true, force: true })
    return true
  } catch {
    return false
  }
}
