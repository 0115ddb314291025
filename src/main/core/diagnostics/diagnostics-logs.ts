import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** How many days of logs before today a diagnostics file holds. */
export const DIAGNOSTICS_LOG_DAYS = 7

/**
 * What the shell logs when the core process stops and is started again (shell/core-process/remote-app-core.ts
 * writes these; diagnostics find the restarts by them): one place for both.
 */
export const CORE_PROCESS_LOG_LINES = {
  stopped: 'The core process stopped unexpectedly',
  restarted: 'The core process was started again',
  gaveUp: 'The core process keeps stopping; not starting it again',
} as const

/** One log file as a diagnostics file holds it: its name and the entries of the days kept. */
export interface LogFileText {
  readonly name: string
  readonly text: string
}

/** A line that starts an entry: formatLogLine's UTC timestamp (log/logger.ts). */
const ENTRY_START = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z) /

/** Midnight UTC `days` days before `now`'s day: entries from then on are kept. */
export function logCutoff(now: Date, days = DIAGNOSTICS_LOG_DAYS): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days)
}

/**
 * The entries of `text` written at or after `cutoff` (ms), continuation lines with their entry; lines before the
 * first timestamp belong to an entry older than the file, and go with the first entry's verdict.
 */
export function entriesSince(text: string, cutoff: number): string {
  const kept: string[] = []
  let keeping = false
  for (const line of text.split('\n')) {
    const start = ENTRY_START.exec(line)
    if (start?.[1] !== undefined) keeping = Date.parse(start[1]) >= cutoff
    if (keeping) kept.push(line)
  }
  return kept.join('\n')
}

/**
 * The logs in `logsDir` (the app's main.log, the CLI's cli.log and their older copies main.1.log …), today's and
 * the last DIAGNOSTICS_LOG_DAYS days' entries, oldest copy first; files last written before then are left out.
 * A folder that does not exist gives none.
 */
export function readRecentLogs(logsDir: string, now: Date): LogFileText[] {
  const cutoff = logCutoff(now)
  let names: string[]
  try {
    names = readdirSync(logsDir).filter((name) => name.endsWith('.log'))
  } catch {
    return []
  }
  const logs: LogFileText[] = []
  for (const name of names.sort(byAge)) {
    try {
      const path = join(logsDir, name)
      const stats = statSync(path)
      if (!stats.isFile() || stats.mtimeMs < cutoff) continue
      const text = entriesSince(readFileSync(path, 'utf8'), cutoff)
      if (text !== '') logs.push({ name, text })
    } catch {
      // Rotated away meanwhile, or unreadable: the others are still worth sending.
    }
  }
  return logs
}

/** main.2.log before main.1.log before main.log; names otherwise alphabetical. */
function byAge(a: string, b: string): number {
  const [baseA, copyA] = splitCopy(a)
  const [baseB, copyB] = splitCopy(b)
  return baseA === baseB ? copyB - copyA : baseA.localeCompare(baseB)
}

function splitCopy(name: string): [string, number] {
  const match = /^(.*)\.(\d+)\.log$/.exec(name)
  return match?.[1] === undefined ? [name.slice(0, -4), 0] : [match[1], Number(match[2])]
}

/** Every entry (its first line) of `logs` whose text holds one of `needles`, oldest first, with its file's name. */
function entriesHolding(logs: readonly LogFileText[], needles: readonly RegExp[]): string[] {
  const found: string[] = []
  for (const log of logs) {
    for (const line of log.text.split('\n')) {
      if (ENTRY_START.test(line) && needles.some((needle) => needle.test(line))) found.push(line)
    }
  }
  return found
}

/**
 * The crash summaries in the logs: the entries the crash reporter writes at the start after a crash (issue 35,
 * point 1: which process, when, the versions, Electron's reason). Until that reporter names its own source, they
 * are found by their words; a source of its own (a file of summaries) plugs in here, and nowhere else.
 */
export function crashSummariesFor(logs: readonly LogFileText[]): string[] {
  return entriesHolding(logs, [/\bcrash(?:ed|es)?\b/i, /closed unexpectedly/i, /render-process-gone/])
}

/** The core process's stops and restarts the shell logged (CORE_PROCESS_LOG_LINES). */
export function coreRestartsFor(logs: readonly LogFileText[]): string[] {
  const lines = Object.values(CORE_PROCESS_LOG_LINES).map(
    (text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  )
  return entriesHolding(logs, lines)
}
