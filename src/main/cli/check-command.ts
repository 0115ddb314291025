import { rootCertificates } from 'node:tls'
import type { AccessTokenSource } from '../core/api/access-token-source'
import type { FetchLike } from '../core/api/fetch-like'
import { systemClock } from '../core/clock'
import { isRosterDeskError, RosterDeskError, toIpcError } from '../core/errors'
import { logFailure } from '../core/log/log-failure'
import { connectionTarget, runConnectionCheck } from '../core/connection-check/connection-check'
import { nodeProbes, type NodeProbeOptions } from '../core/connection-check/node-probes'
import { connectionReportText } from '../../shared/connection-report'
import {
  parseCommandArgs,
  reportUsage,
  UsageError,
  writeLine,
  type CacheCommandIo,
  type ParsedValues,
} from './cache-command-args'
import { cliTokenSource, parseServiceFlags, scopeFlag, SERVICE_OPTIONS, syncLimitFlag } from './service-flags'
import { terminalText } from './terminal-text'

export const CHECK_USAGE =
  'Usage: check (--profile NAME [--data-dir DIR] | --base-url URL) [--client-id ID] [--redirect-uri URI] ' +
  '[--scope S] [--tenant ID] [--token-file FILE] [--request-timeout SECONDS] [--json]   ' +
  '(signed in with --token-file or ROSTERDESK_ACCESS_TOKEN, the list step asks for one employee)'

const OPTIONS = {
  ...SERVICE_OPTIONS,
  scope: { type: 'string' },
  'request-timeout': { type: 'string' },
  json: { type: 'boolean' },
} as const

/** Exit code when a step of the check failed (every step passed: 0; bad usage: 2). */
export const EXIT_CHECK_FAILED = 1

/**
 * `check`: the way to the service tried step by step (connection-check.ts): the proxy in use, DNS, TCP, the TLS
 * chain checked against the command line's trust set, the authorize and token endpoints, and one list request
 * when tokens are given. Prints `connectionReportText` (what "Copy report" copies in the app); with --json, the
 * report as one JSON object. Exit codes: 0 every step passed, 1 a step failed, 2 bad usage.
 */
export async function runCheckCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let values: ParsedValues
  let flags: ReturnType<typeof parseServiceFlags>
  let scopes: string
  let timeoutSeconds: number
  try {
    values = parseCommandArgs(args, OPTIONS)
    flags = parseServiceFlags(values, io.env, io.platform, { command: 'check', required: false })
    scopes = scopeFlag(values, flags.profile)
    timeoutSeconds = syncLimitFlag(values, flags.profile, 'request-timeout', 'requestTimeoutSeconds')
  } catch (error) {
    if (error instanceof UsageError) return reportUsage(error, io, CHECK_USAGE)
    throw error
  }
  const network = cliNetwork()
  const signedIn = await signedInTokens(flags, io, network.fetch)
  const report = await runConnectionCheck(
    { fetch: network.fetch, clock: systemClock, probes: nodeProbes(network.probes), logger: io.logger },
    connectionTarget(
      {
        baseUrl: flags.baseUrl,
        clientId: flags.clientId,
        redirectUri: flags.redirectUri,
        scopes,
        tenantId: signedIn?.tenantId ?? flags.tenant ?? '',
      },
      {
        ...(flags.profile === undefined ? {} : { profile: flags.profile.name }),
        ...(signedIn === undefined ? {} : { tokens: signedIn.tokens }),
        timeoutMs: timeoutSeconds * 1000,
      },
    ),
  )
  if (values['json'] === true) writeLine(io.stdout, JSON.stringify(report))
  // Each line escaped for the terminal on its own (service text in a message must not act on it).
  else io.stdout.write(`${connectionReportText(report).split('\n').map(terminalText).join('\n')}\n`)
  return report.ok ? 0 : EXIT_CHECK_FAILED
}

/**
 * The command line's network: the fetch the sync uses and the probes' view of the same way out (which proxy,
 * which certificates are trusted).
 */
function cliNetwork(): { fetch: FetchLike; probes: NodeProbeOptions } {
  return {
    fetch,
    probes: {
      resolveProxy: async () => ({
        route: { kind: 'direct', source: 'the command line connects directly' },
      }),
      trustedCertificates: rootCertificates,
      trustSet: "Node's bundled certificates",
    },
  }
}

/**
 * The tokens the list step uses, when the command was given some (--token-file, ROSTERDESK_ACCESS_TOKEN). A token
 * file that cannot be used (unreadable, written for another service) fails the list step with its message, not
 * the command: the other steps are still worth seeing.
 */
async function signedInTokens(
  flags: ReturnType<typeof parseServiceFlags>,
  io: CacheCommandIo,
  fetch: FetchLike,
): Promise<{ tokens: AccessTokenSource; tenantId: string } | undefined> {
  try {
    return await cliTokenSource(flags, io.env, io.logger, fetch)
  } catch (error) {
    logFailure(io.logger, 'Check: the tokens cannot be used', error)
    const refusal = isRosterDeskError(error)
      ? error
      : new RosterDeskError('internal', toIpcError(error).message)
    const fail = (): Promise<string> => Promise.reject(refusal)
    return {
      tokens: { getAccessToken: fail, handleUnauthorized: fail },
      tenantId: flags.tenant ?? '',
    }
  }
}
