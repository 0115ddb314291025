import { parseArgs } from 'node:util'
import type { Logger } from '../core/log/logger'
import type { CacheKey } from '../core/sqlite/cache-key'
import type { PolicyInForce } from '../core/policy/policy-in-force'
import type { SessionRunners } from '../core/session/session-runners'
import type { SyncCheckpoint } from '../core/sync/sync-options'
import { terminalText } from './terminal-text'

/**
 * Argument handling shared by the cache commands (sync, search, status, changes, export): strict parsing, and one-line usage
 * errors that name the bad option, so a script's log says what to fix.
 */

/** What a command gets from the dispatcher (the same shape as `CliIo` in index.ts). */
export interface CacheCommandIo {
  readonly stdout: NodeJS.WritableStream
  readonly stderr: NodeJS.WritableStream
  readonly env: NodeJS.ProcessEnv
  readonly platform: NodeJS.Platform
  readonly logger: Logger
  /**
   * Told each named step of a `sync` run (SyncDependencies.checkpoint): the crash tests' child kills itself at
   * one (test/helpers/kill-at-checkpoint.ts); the CLI itself passes none.
   */
  readonly syncCheckpoint?: (step: SyncCheckpoint) => void
  /** The machine policy, read once at the CLI's start (index.ts); absent: none. */
  readonly policy?: PolicyInForce
  /** The user's data folder (`appDataDir`), where the export record is kept; absent: exports are not recorded. */
  readonly dataDir?: string
  /**
   * The user's cache key, read (made on first use) when a command opens a cache: the owner-only key file in the
   * data folder (index.ts, cache-key-file.ts); a test's own key in-process.
   */
  readonly cacheKey: () => CacheKey
  /**
   * Where a command's session runs its work (cli-session.ts): the inline runners when absent, as the CLI passes
   * none; a test's to see what a command asks of them.
   */
  readonly runners?: SessionRunners
}

/** A usage problem: exit code 2 and the message plus the command's usage line. */
export class UsageError extends Error {}

export type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean }
export type ParsedValues = Record<string, string | boolean | Array<string | boolean> | undefined>

export function parseCommandArgs(args: readonly string[], options: Record<string, OptionSpec>): ParsedValues {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false })
      .values as ParsedValues
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : 'Unreadable arguments.')
  }
}

export function stringOption(values: ParsedValues, name: string): string | undefined {
  const value = values[name]
  return typeof value === 'string' ? value : undefined
}

export function requiredOption(values: ParsedValues, name: string): string {
  const value = stringOption(values, name)?.trim()
  if (value === undefined || value === '') throw new UsageError(`Missing --${name}.`)
  return value
}

export function listOption(values: ParsedValues, name: string): string[] {
  const value = values[name]
  if (!Array.isArray(value)) return []
  return value
    .filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    .map((item) => item.trim())
}

/** A whole number within [min, max], or the fallback when the option is absent. */
export function integerOption(
  values: ParsedValues,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const text = stringOption(values, name)
  if (text === undefined) return fallback
  const value = Number(text)
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}.`)
  }
  return value
}

/** For a UsageError: its message and the command's usage on one line, and exit code 2. Rethrows anything else. */
export function reportUsage(error: unknown, io: CacheCommandIo, usage: string): number {
  if (!(error instanceof UsageError)) throw error
  writeLine(io.stderr, `${error.message} ${usage}`)
  return 2
}

/** Writes one line (messages may span lines in the core; a script's log wants one). */
export function writeLine(stream: NodeJS.WritableStream, text: string): void {
  stream.write(`${terminalText(text.replace(/\s*\n\s*/g, ' '))}\n`)
}
