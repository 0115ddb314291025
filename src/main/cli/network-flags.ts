import type { Logger } from '../core/log/logger'
import { createNodeFetch, type NodeFetch } from '../core/net/node-fetch'
import {
  describeNodeNetwork,
  NetworkOptionError,
  PROXY_PASSWORD_VARIABLE,
  PROXY_USER_VARIABLE,
  resolveNodeNetwork,
  type ProfileNetworkSettings,
} from '../core/net/network-options'
import { stringOption, UsageError, type ParsedValues } from './cache-command-args'
import type { PolicyInForce } from '../core/policy/policy-in-force'
import { cliPolicyRules, policyNetworkLayer } from './policy-flags'

/** The network flags of every command that reaches the service, for its parseArgs options. */
export const NETWORK_OPTIONS = {
  proxy: { type: 'string' },
  'ca-file': { type: 'string' },
} as const

/** The network flags in a command's usage line. */
export const NETWORK_USAGE =
  `[--proxy URL|none] [--ca-file FILE.pem]   (proxy: --proxy, else HTTPS_PROXY / HTTP_PROXY / NO_PROXY; ` +
  `its credentials in ${PROXY_USER_VARIABLE} / ${PROXY_PASSWORD_VARIABLE} or in HTTPS_PROXY's URL, never in --proxy)`

/** What a command needs to open its fetch: the flags as given, the environment, the profile's settings. */
export interface CliNetworkInput {
  readonly values: ParsedValues
  readonly env: NodeJS.ProcessEnv
  readonly profile?: ProfileNetworkSettings
  /** The machine policy, whose network is over every other layer (policy-flags.ts). */
  readonly policy?: PolicyInForce | undefined
  /** The service's address: the extra certificates file vouches for its host (and the proxy) alone. */
  readonly serviceUrl: string
}

/**
 * The network input of a command that names its service with the service flags (`sync`, `check`): the flags as
 * given, the environment, the machine policy, the settings of the profile --profile named and the service's address.
 */
export function serviceNetworkInput(
  values: ParsedValues,
  profile: { readonly settings: ProfileNetworkSettings } | undefined,
  io: { readonly env: NodeJS.ProcessEnv; readonly policy?: PolicyInForce | undefined },
  serviceUrl: string,
): CliNetworkInput {
  return {
    values,
    serviceUrl,
    env: io.env,
    policy: io.policy,
    ...(profile === undefined ? {} : { profile: profile.settings }),
  }
}

/**
 * The fetch a CLI command reaches the service with (close it when done): `resolveNodeNetwork`'s choice from
 * --proxy and --ca-file, the environment and the profile, then `createNodeFetch`. A flag that cannot be used is
 * a UsageError (exit 2) naming it; the profile's or the environment's a 'config' error. A note (a PAC file the CLI
 * cannot use) goes to stderr; the choice itself, without credentials, to the log at info.
 */
export function openCliFetch(
  input: CliNetworkInput,
  io: { readonly stderr: NodeJS.WritableStream; readonly logger: Logger },
): NodeFetch {
  const proxy = stringOption(input.values, 'proxy')
  const caFile = stringOption(input.values, 'ca-file')
  if (proxy?.trim() === '') throw new UsageError('--proxy needs a proxy URL, or none.')
  if (caFile?.trim() === '') throw new UsageError('--ca-file needs a PEM file.')
  const fromPolicy = policyNetworkLayer(cliPolicyRules(input.policy), { proxy, caFile })
  if (fromPolicy.note !== undefined) io.stderr.write(`Note: ${fromPolicy.note}\n`)
  try {
    const network = resolveNodeNetwork({
      ...(fromPolicy.layer === undefined ? {} : { policy: fromPolicy.layer }),
      flags: {
        ...(proxy === undefined ? {} : { proxy }),
        ...(caFile === undefined ? {} : { caFile }),
      },
      env: input.env,
      ...(input.profile === undefined ? {} : { profile: input.profile }),
    })
    for (const note of network.notes) io.stderr.write(`Note: ${note}\n`)
    const serviceHost = URL.canParse(input.serviceUrl) ? new URL(input.serviceUrl).hostname : undefined
    const opened = createNodeFetch(network, { serviceHost })
    io.logger.info(`Network: ${describeNodeNetwork(network)}`)
    return opened
  } catch (error) {
    if (error instanceof NetworkOptionError && error.source === 'command-line')
      throw new UsageError(error.message)
    throw error
  }
}
