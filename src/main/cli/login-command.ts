import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { AuthService } from '../core/auth/auth-service'
import { isLoopbackRedirectUri } from '../core/auth/callback-url'
import { writeTokenFile } from '../core/auth/token-file'
import { readStoredTokens } from '../core/auth/token-manager'
import { expiryText } from '../core/auth/token-response'
import { systemClock, type Clock } from '../core/clock'
import { toIpcError } from '../core/errors'
import { logFailure } from '../core/log/log-failure'
import type { Logger } from '../core/log/logger'
import { MemorySecretStore } from '../core/secrets/secret-store'
import { DEFAULT_SETTINGS } from '../core/settings/settings-defaults'
import type { PolicyProfile } from '../core/policy/policy-schema'
import { redirectUriProblem } from '../../shared/settings-rules'
import { serviceAddressSchema, settingsSchema } from '../../shared/settings-schema'
import type { NodeFetch } from '../core/net/node-fetch'
import { UsageError } from './cache-command-args'
import { NETWORK_OPTIONS, NETWORK_USAGE, openCliFetch } from './network-flags'
import { settingFlag } from './setting-flags'
import type { PolicyInForce } from '../core/policy/policy-in-force'
import { cliPolicyRules, policyProfileFor, policySecretFor, refuseLockedFlags } from './policy-flags'

/** What a CLI command gets from the dispatcher (the same shape as `CliIo` in index.ts). */
export interface LoginIo {
  readonly stdout: NodeJS.WritableStream
  readonly stderr: NodeJS.WritableStream
  readonly env: NodeJS.ProcessEnv
  readonly platform: NodeJS.Platform
  readonly logger: Logger
  /** Tests only: time for the sign-in's expiry (the dispatcher passes none, so the system clock). */
  readonly clock?: Clock
  /** The machine policy, read once at the CLI's start (index.ts); absent: none. */
  readonly policy?: PolicyInForce
}

/** A CLI sign-in waits this long for the browser. */
export const CLI_SIGN_IN_TIMEOUT_MS = 5 * 60_000

export const LOGIN_USAGE =
  'Usage: login --base-url URL --client-id ID --redirect-uri http://127.0.0.1:PORT/callback --token-file FILE ' +
  `[--scope S] [--tenant T] [--no-open] ${NETWORK_USAGE} (client secret in ROSTERDESK_CLIENT_SECRET)`

/**
 * `login`: the app's sign-in flow on the command line, receiving the browser's answer on a loopback port (the
 * CLI has no custom scheme registered with the OS), then writing the tokens to a 0600 file for the other
 * commands. With --no-open the authorize URL is the first line of stdout, for a person or a test to follow.
 * Exit codes: 0 signed in, 1 sign-in failed, 2 bad usage.
 */
export async function runLoginCommand(args: readonly string[], io: LoginIo): Promise<number> {
  const fail = (code: number, message: string): number => {
    io.stderr.write(`${message.replace(/\s*\n\s*/g, ' ')}\n`)
    return code
  }
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      args: [...args],
      options: {
        'base-url': { type: 'string' },
        'client-id': { type: 'string' },
        'redirect-uri': { type: 'string' },
        'token-file': { type: 'string' },
        scope: { type: 'string' },
        tenant: { type: 'string' },
        'no-open': { type: 'boolean', default: false },
        ...NETWORK_OPTIONS,
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    return fail(2, `${error instanceof Error ? error.message : 'Unreadable arguments.'} ${LOGIN_USAGE}`)
  }
  const text = (name: string): string => (typeof values[name] === 'string' ? (values[name] as string) : '')
  for (const name of ['base-url', 'client-id', 'redirect-uri', 'token-file']) {
    if (text(name).trim() === '') return fail(2, `Missing --${name}. ${LOGIN_USAGE}`)
  }
  /** A flag as given, or undefined when left out (then the policy's value, else the default, is used). */
  const given = (name: string): string | undefined =>
    typeof values[name] === 'string' ? (values[name] as string) : undefined
  let service: { baseUrl: string; clientId: string; scopes: string; tenantId: string }
  const rules = cliPolicyRules(io.policy)
  let policyProfile: PolicyProfile | undefined
  try {
    policyProfile = policyProfileFor(rules, undefined, text('base-url'), given('tenant'))
    // The machine policy's locks, as for every command; its redirect URI is the app's (login's is loopback).
    refuseLockedFlags(rules, policyProfile, {
      baseUrl: text('base-url'),
      clientId: text('client-id'),
      tenantId: given('tenant'),
      scopes: given('scope'),
    })
    // A scope or tenant left out is the policy profile's, as the app's profile has it, else the default.
    const fields = settingsSchema.shape
    service = {
      baseUrl: settingFlag('base-url', serviceAddressSchema, text('base-url')),
      clientId: settingFlag('client-id', fields.clientId, text('client-id')),
      scopes: settingFlag(
        'scope',
        fields.scopes,
        given('scope') ?? policyProfile?.scopes ?? DEFAULT_SETTINGS.scopes,
      ),
      tenantId: settingFlag('tenant', fields.tenantId, given('tenant') ?? policyProfile?.tenantId ?? ''),
    }
  } catch (error) {
    if (error instanceof UsageError) return fail(2, error.message)
    throw error
  }
  const redirectUri = text('redirect-uri').trim()
  const problem = redirectUriProblem(redirectUri)
  if (problem !== undefined || !isLoopbackRedirectUri(redirectUri)) {
    return fail(
      2,
      `login needs a loopback redirect URI such as http://127.0.0.1:8765/callback (RFC 8252 §7.3); ` +
        `the command line cannot receive ${problem === undefined ? 'custom-scheme links' : 'this address'}.`,
    )
  }
  // The machine policy's secret for this service wins, as in the app.
  const clientSecret =
    policySecretFor(policyProfile, service.baseUrl) ?? io.env.ROSTERDESK_CLIENT_SECRET ?? ''
  if (clientSecret === '') {
    return fail(2, 'Set ROSTERDESK_CLIENT_SECRET to the client secret (it is never taken as an argument).')
  }
  const tokenFile = resolve(text('token-file'))
  let net: NodeFetch
  try {
    net = openCliFetch({ values, env: io.env, policy: io.policy, serviceUrl: service.baseUrl }, io)
  } catch (error) {
    if (error instanceof UsageError) return fail(2, `${error.message} ${LOGIN_USAGE}`)
    logFailure(io.logger, 'Login failed', error)
    return fail(1, toIpcError(error).message)
  }

  const secrets = new MemorySecretStore()
  await secrets.set('clientSecret', clientSecret)
  const auth = await AuthService.create({
    fetch: net.fetch,
    clock: io.clock ?? systemClock,
    secrets,
    environment: () => ({
      environment: 'production',
      ...service,
      redirectUri,
    }),
    openExternal: (url) => (values['no-open'] === true ? writeLine(io.stdout, url) : openInBrowser(url, io)),
    signInTimeoutMs: CLI_SIGN_IN_TIMEOUT_MS,
    logger: io.logger,
  })

  const onInterrupt = (): void => {
    auth.cancelSignIn()
  }
  process.once('SIGINT', onInterrupt)
  try {
    const state = await auth.signIn()
    if (state.status !== 'signed-in') return fail(1, state.error ?? 'Sign-in was cancelled.')
    const tokens = await readStoredTokens(secrets)
    if (!tokens) return fail(1, 'The sign-in finished without tokens. Try again.')
    await writeTokenFile(tokenFile, {
      baseUrl: tokens.context.baseUrl,
      clientId: tokens.context.clientId,
      redirectUri,
      tenantId: service.tenantId,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken ?? null,
      expiresAt: expiryText(tokens.expiresAt),
    })
    await writeLine(io.stdout, `Signed in. Tokens written to ${tokenFile}.`)
    return 0
  } catch (error) {
    logFailure(io.logger, 'Login failed', error)
    return fail(1, toIpcError(error).message)
  } finally {
    process.removeListener('SIGINT', onInterrupt)
    await net.close()
  }
}

/** Writes one line and waits until it left the process, so a reader of the pipe sees it before anything else. */
function writeLine(stream: NodeJS.WritableStream, line: string): Promise<void> {
  return new Promise((resolveWrite, reject) => {
    stream.write(`${line}\n`, (error) => (error ? reject(error) : resolveWrite()))
  })
}

/**
 * Opens the URL with the platform's opener. If none works the URL is printed instead, so the clerk can paste it:
 * the sign-in keeps waiting either way.
 */
function openInBrowser(url: string, io: LoginIo): Promise<void> {
  const [command, args, verbatim] =
    io.platform === 'darwin'
      ? ['open', [url], false]
      : io.platform === 'win32'
        ? // `start` is a cmd built-in; the quotes keep cmd from reading the URL's & as a command separator.
          ['cmd', ['/d', '/s', '/c', `start "" "${url}"`], true]
        : ['xdg-open', [url], false]
  return new Promise((resolveOpen) => {
    const child = spawn(command, args, {
      stdio: 'ignore',
      detached: true,
      windowsVerbatimArguments: verbatim,
    })
    child.once('error', () => {
      io.stderr.write('Could not start a web browser. Open this address to sign in:\n')
      void writeLine(io.stdout, url).then(resolveOpen, resolveOpen)
    })
    child.once('spawn', () => {
      child.unref()
      resolveOpen()
    })
  })
}
