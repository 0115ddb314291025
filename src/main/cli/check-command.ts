import type { AccessTokenSource } from '../core/api/access-token-source'
import type { FetchLike } from '../core/api/fetch-like'
import { systemClock } from '../core/clock'
import { isRosterDeskError, RosterDeskError, toIpcError } from '../core/errors'
import { logFailure } from '../core/log/log-failure'
import { connectionTarget, runConnectionCheck } from '../core/connection-check/connection-check'
import { nodeProbes } from '../core/connection-check/node-probes'
import type { NodeFetch } from '../core/net/node-fetch'
import { connectionReportText } from '../../shared/connection-report'
import {
  parseCommandArgs,
  reportUsage,
  UsageError,
  writeLine,
  type CacheCommandIo,
  type ParsedValues,
} from './cache-command-args'
import { NETWORK_OPTIONS, NETWORK_USAGE, openCliFetch, serviceNetworkInput } from './network-flags'
import { cliTokenSource, parseServiceFlags, scopeFlag, SERVICE_OPTIONS, syncLimitFlag } from './service-flags'
import { terminalText } from './terminal-text'

export const CHECK_USAGE =
  'Usage: check (--profile NAME [--data-dir DIR] | --base-url URL) [--client-id ID] [--redirect-uri URI] ' +
  `[--scope S] [--tenant ID] [--token-file FILE] [--request-timeout SECONDS] [--json] ${NETWORK_USAGE} ` +
  '(signed in with --token-file or ROSTERDESK_ACCESS_TOKEN, the list step asks for one employee)'

const OPTIONS = {
  ...SERVICE_OPTIONS,
  scope: { type: 'string' },
  'request-timeout': { type: 'string' },
  json: { type: 'boolean' },
  ...NETWORK_OPTIONS,
} as const

/** Exit code when a step of the check failed (no step failed: 0; bad usage: 2). */
export const EXIT_CHECK_FAILED = 1

/**
 * `check`: the way to the service tried step by step (connection-check.ts): the proxy in use, DNS, TCP, the TLS
 * chain checked against the command line's trust set, the authorize and token endpoints, and one list request
 * when tokens are given. The network is the sync's: --proxy, --ca-file, HTTPS_PROXY / HTTP_PROXY / NO_PROXY and
 * the profile's Settings → Network through `openCliFetch`, whose fetch asks the endpoints and whose network choice
 * and trust set the probes use. Prints `connectionReportText` (what "Copy report" copies in the app); with --json,
 * the report as one JSON object. Exit codes: 0 no step failed, 1 a step failed (or the network settings cannot
 * be used: one line on stderr), 2 bad usage.
 */
export async function runCheckCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let values: ParsedValues
  let flags: ReturnType<typeof parseServiceFlags>
  let scopes: string
  let timeoutSeconds: number
  let net: NodeFetch
  try {
    values = parseCommandArgs(args, OPTIONS)
    flags = parseServiceFlags(values, io.env, io.platform, {
      command: 'check',
      required: false,
      policy: io.policy,
    })
    scopes = scopeFlag(values, flags.profile)
    timeoutSeconds = syncLimitFlag(values, flags.profile, 'request-timeout', 'requestTimeoutSeconds')
    net = openCliFetch(serviceNetworkInput(values, flags.profile, io, flags.baseUrl), io)
  } catch (error) {
    if (error instanceof UsageError) return reportUsage(error, io, CHECK_USAGE)
    if (!isRosterDeskError(error)) throw error
    // The profile's network settings cannot be used (a proxy with credentials, a missing certificates file).
    logFailure(io.logger, 'Check failed', error)
    writeLine(io.stderr, `Check failed: ${error.message}`)
    return EXIT_CHECK_FAILED
  }
  try {
    const signedIn = await signedInTokens(flags, io, net.fetch)
    const report = await runConnectionCheck(
      { fetch: net.fetch, clock: systemClock, probes: nodeProbes({ net }), logger: io.logger },
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
  } finally {
    await net.close()
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
