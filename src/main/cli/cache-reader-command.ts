import { resolve } from 'node:path'
import type { SessionServices } from '../core/session/session-services'
import { toIpcError } from '../core/errors'
import { logFailure } from '../core/log/log-failure'
import { parseCommandArgs, reportUsage, requiredOption, stringOption, writeLine } from './cache-command-args'
import { cliProfileSource, openCliSession } from './cli-session'
import { appFolders, readCliProfile, type CliProfile } from './profile-flag'
import type { CacheCommandIo, OptionSpec, ParsedValues } from './cache-command-args'

/** A command that reads an existing cache (never creates one): status, search, changes. */
export interface CacheReaderCommand<T> {
  readonly usage: string
  /** Every option but `--db` (or `--profile NAME [--data-dir DIR]`), which each of these commands takes. */
  readonly options: Record<string, OptionSpec>
  /** Starts the one-line message of a failure: "Search failed", say. */
  readonly failure: string
  /**
   * Reads the options into what `run` needs; throws UsageError for bad usage. `profile` is the one `--profile`
   * named (for what the app keeps per profile, such as saved views).
   */
  parse(values: ParsedValues, profile: CliProfile | undefined): T
  /**
   * Answers from the session over the open cache (core's one composition, cli-session.ts) on io.stdout; throws
   * (or rejects) for a failure the clerk should read.
   */
  run(session: SessionServices, parsed: T, io: CacheCommandIo): void | Promise<void>
}

/** Exit codes: 0 answered, 1 cache missing or damaged or the answer refused, 2 bad usage. */
export async function runCacheReader<T>(
  command: CacheReaderCommand<T>,
  args: readonly string[],
  io: CacheCommandIo,
): Promise<number> {
  let db: string
  let appCache = false
  let parsed: T
  let profile: CliProfile | undefined
  try {
    const values = parseCommandArgs(args, {
      db: { type: 'string' },
      profile: { type: 'string' },
      'data-dir': { type: 'string' },
      ...command.options,
    })
    // `--profile NAME` reads the cache the app fills for that profile; an explicit --db wins.
    const profileName = stringOption(values, 'profile')
    profile =
      profileName === undefined
        ? undefined
        : readCliProfile(
            profileName,
            appFolders(stringOption(values, 'data-dir'), io.env, io.platform),
            io.policy,
          )
    appCache = stringOption(values, 'db') === undefined && profile !== undefined
    db = appCache && profile !== undefined ? profile.db : resolve(requiredOption(values, 'db'))
    parsed = command.parse(values, profile)
  } catch (error) {
    return reportUsage(error, io, command.usage)
  }
  let session: SessionServices | null = null
  try {
    session = openCliSession(
      {
        db,
        mustExist: true,
        appCache,
        ...(profile === undefined ? {} : { profile: profile.name, source: cliProfileSource(profile) }),
      },
      io,
    )
    await command.run(session, parsed, io)
    return 0
  } catch (error) {
    logFailure(io.logger, command.failure, error)
    writeLine(io.stderr, `${command.failure}: ${toIpcError(error).message}`)
    return 1
  } finally {
    await session?.close()
  }
}
