import {
  CONNECTION_STEP_IDS,
  type CertificateSummary,
  type ConnectionReport,
  type ConnectionStep,
  type ConnectionStepId,
} from '../../../shared/connection-report-schema'
import type { Settings } from '../../../shared/settings-schema'
import type { AccessTokenSource } from '../api/access-token-source'
import type { FetchLike } from '../api/fetch-like'
import { requestJson, statusError, type HttpJsonResponse } from '../api/http-json'
import { EMPLOYEE_LIST, ListClient } from '../api/list-client'
import { AUTHORIZE_PATH, buildAuthorizeUrl } from '../auth/authorize-url'
import { oauthErrorCode, TOKEN_ANSWER_MAX_BYTES, TOKEN_PATH } from '../auth/token-endpoint'
import type { Clock } from '../clock'
import type { Logger } from '../log/logger'
import { RosterDeskError } from '../errors'
import { classifyNetworkFailure, NetworkFailureError, networkFailureReason } from '../net/network-failure'
import {
  missingConfiguration,
  resolveEnvironment,
  type DemoEnvironment,
  type ResolvedEnvironment,
} from '../settings/resolve-environment'

/**
 * "Test connection" (Settings → Network) and `cli check`: the way from this computer to the payroll service tried
 * one step at a time, each timed and caught into a ConnectionStep, so IT reads where it stops and why. Pure Node:
 * what a runtime can see of the network (which proxy, DNS, TCP, the TLS chain, the certificates a request met)
 * comes from its `ConnectionProbes`; the service's own endpoints are asked through `fetch` with the sync's request
 * code (http-json's timeouts, size limits and redirect rule). The report holds no secret: no token, no client
 * secret (the token step sends none), no credentials in an address, no employee data (the list step counts).
 */

/** How the base URL is reached, as the runtime resolved it. */
export type ProxyRoute =
  | {
      readonly kind: 'direct'
      /** Why direct, in words: "no proxy in the environment", "--proxy none", "Electron resolved DIRECT". */
      readonly source: string
    }
  | {
      readonly kind: 'proxy'
      /** The proxy's address, scheme://host:port (credentials are stripped again before it is shown). */
      readonly url: string
      /** Where it came from: "HTTPS_PROXY", "--proxy", "the profile's setting", "Electron (PAC)". */
      readonly source: string
    }

/** A name resolved: the addresses found, in the resolver's order. */
export interface DnsAnswer {
  readonly addresses: readonly string[]
}

/** A TCP connection opened (and closed again): the address it reached. */
export interface TcpAnswer {
  readonly address: string
}

/**
 * A TLS handshake as far as it got. `trusted` false with the chain seen and `problem` (a 'certificate' error
 * naming the issuer, or the expiry or host-name mismatch) when the chain is not accepted; a probe throws only
 * when no chain was seen at all (refused, reset, a proxy refusing the tunnel).
 */
export interface TlsAnswer {
  /** The chain as presented, leaf first. */
  readonly certificates: readonly CertificateSummary[]
  readonly trusted: boolean
  /** The set the chain was checked against, in words: "Node's bundled list, the OS store and ca.pem". */
  readonly trustSet: string
  /** "TLSv1.3", when known. */
  readonly protocol?: string
  readonly problem?: RosterDeskError
}

/**
 * What a runtime lets the check see of the network. The CLI implements every probe with Node's dns, net and tls
 * (through a proxy: TLS through its CONNECT tunnel, so the chain is the one an inspecting proxy presents); the app
 * implements `proxy` with Electron's resolution and `certificates` from its verify proc, and leaves DNS, TCP and
 * TLS to Electron's network stack (those steps are then skipped with `unseen`). Probes throw RosterDeskError (or
 * a Node error, classified here) when they fail.
 */
export interface ConnectionProbes {
  readonly runtime: ConnectionReport['runtime']
  /** The proxy the base URL goes through, or direct. */
  proxy(url: string): Promise<ProxyRoute>
  /** Resolves a host name. */
  dns?(host: string): Promise<DnsAnswer>
  /** Opens and closes a TCP connection. */
  tcp?(host: string, port: number): Promise<TcpAnswer>
  /** A TLS handshake with `host:port`, through `route`'s proxy when it is one; SNI and the name checked are `host`. */
  tls?(host: string, port: number, route: ProxyRoute): Promise<TlsAnswer>
  /** The certificates the runtime saw for the last request to `url` (the app's verify proc), when it knows. */
  certificates?(url: string): Promise<readonly CertificateSummary[] | undefined>
  /** Why DNS, TCP and TLS are not shown when the probes are absent ("Electron's network stack does these itself"). */
  readonly unseen?: string
}

/** What the check runs against: one service address and the registration sign-in would use. */
export interface ConnectionTarget {
  readonly baseUrl: string
  /** The profile's name, when a profile is checked (shown in the report). */
  readonly profile?: string
  readonly clientId: string
  readonly redirectUri: string
  /** Space- or comma-separated, as sign-in sends them. */
  readonly scopes: string
  /** Sent as the tenant header of the list request when not empty. */
  readonly tenantId: string
  /** Given only when signed in: the list step asks for one page with it; otherwise that step is skipped. */
  readonly tokens?: AccessTokenSource
  /** Per request, headers and body; the sync's default when absent. */
  readonly timeoutMs?: number
}

/** Taken once: the request function (the runtime's network stack), the clock that times the steps, the probes. */
export interface ConnectionCheckDeps {
  readonly fetch: FetchLike
  readonly clock: Clock
  readonly probes: ConnectionProbes
  /** Stops the check: the running request ends and the step fails as cancelled. */
  readonly signal?: AbortSignal
  /** Told each failed step with its error (the detail the report leaves out), at warn. */
  readonly logger?: Logger
}

/** The most read of the authorize endpoint's answer (a sign-in page): more is cut off, the status is what counts. */
export const AUTHORIZE_ANSWER_MAX_BYTES = 1024 * 1024

/**
 * The made-up authorization code the token step sends: the service must refuse it, and the refusal in JSON is
 * what proves its token endpoint answers. Named so a service's log shows at once what it was.
 */
export const CHECK_CODE = 'rosterdesk-connection-check-not-a-real-code'

/** The state sent with the authorize request (no sign-in follows, so nothing checks it). */
const CHECK_STATE = 'rosterdesk-connection-check'

const SIGN_IN_FIRST = 'Sign in first: this step asks for one page of the employee list with your sign-in.'

/** What the previous steps decided for the next ones. */
interface Progress {
  route: ProxyRoute | undefined
  /** Set when the way is known to be blocked before the service (a direct route whose DNS, TCP or TLS failed). */
  blocked: string | undefined
}

/**
 * Runs the steps in CONNECTION_STEP_IDS order and answers the report; never throws for a failed step (each
 * failure is its step's message and code). After a failed DNS step TCP and TLS are skipped, after a failed TCP
 * step TLS; on a direct route a failed DNS, TCP or TLS step also skips the service's steps (they would fail the
 * same way), while behind a proxy the service's steps still run, since the proxy reaches the service itself.
 */
export async function runConnectionCheck(
  deps: ConnectionCheckDeps,
  target: ConnectionTarget,
): Promise<ConnectionReport> {
  const started = deps.clock.now()
  const base = new URL(target.baseUrl)
  const shownBase = safeAddress(target.baseUrl)
  const steps: ConnectionStep[] = []
  const progress: Progress = { route: undefined, blocked: undefined }
  const run = async (
    id: ConnectionStepId,
    label: string,
    body: () => Promise<StepOutcome>,
  ): Promise<void> => {
    steps.push(await timedStep(deps, id, label, target.baseUrl, body))
  }

  await run('proxy', `Proxy for ${shownBase}`, async () => {
    const route = await deps.probes.proxy(target.baseUrl)
    progress.route = route
    return ok(
      route.kind === 'direct'
        ? `none, connecting directly (${route.source})`
        : `${safeAddress(route.url)} (${route.source})`,
    )
  })
  for (const step of await networkSteps(deps, base, progress)) steps.push(step)
  const blocked = progress.blocked

  const fetchStep = async (id: ConnectionStepId, label: string, body: () => Promise<StepOutcome>) => {
    if (blocked !== undefined) {
      steps.push(skipped(id, label, blocked))
      return
    }
    await run(id, label, async () => {
      // A refused certificate is where the chain matters most: a failure gets the certificates too.
      const outcome = await body().catch((error: unknown) => failed(stepError(error, target.baseUrl)))
      return withCertificates(deps.probes, target.baseUrl, outcome)
    })
  }
  await fetchStep('authorize', 'Sign-in (authorize) endpoint answers', () => authorizeStep(deps, target))
  await fetchStep('token', 'Token endpoint answers JSON', () => tokenStep(deps, target))
  const listLabel = 'Employee list answers (page 1, limit 1)'
  if (target.tokens === undefined) steps.push(skipped('list', listLabel, SIGN_IN_FIRST))
  else {
    const tokens = target.tokens
    await fetchStep('list', listLabel, () => listStep(deps, target, tokens))
  }

  return {
    baseUrl: shownBase,
    ...(target.profile === undefined ? {} : { profile: target.profile }),
    startedAt: new Date(started).toISOString(),
    runtime: deps.probes.runtime,
    steps: CONNECTION_STEP_IDS.flatMap((id) => steps.filter((step) => step.id === id)),
    ok: steps.every((step) => step.state !== 'failed'),
  }
}

/** What the core's `network:check` handler needs besides a profile's settings. */
export interface ProfileConnectionDeps extends ConnectionCheckDeps {
  /** The in-app sandbox, for a Demo profile (resolveEnvironment). */
  readonly demo: DemoEnvironment
  /** The profile's name for the report. */
  readonly profileName?: string
  /** The profile's tokens, given only when signed in (AuthService.tokens when its state is 'signed-in'). */
  readonly tokens?: AccessTokenSource
}

/**
 * The app's entry point for `network:check`: the profile's settings resolved as sign-in and sync resolve them
 * (Demo → the in-app sandbox), its request timeout, its name and, when signed in, its tokens, checked through
 * the runtime's fetch and probes. Throws RosterDeskError('config') only when there is no service address to
 * check; every other problem is a failed step of the report.
 */
export async function checkProfileConnection(
  settings: Settings,
  deps: ProfileConnectionDeps,
): Promise<ConnectionReport> {
  const environment = resolveEnvironment(settings, deps.demo)
  if (environment.baseUrl === '') {
    throw new RosterDeskError('config', missingConfiguration(environment) ?? 'Enter the service address.')
  }
  return runConnectionCheck(
    deps,
    connectionTarget(environment, {
      ...(deps.profileName === undefined ? {} : { profile: deps.profileName }),
      ...(deps.tokens === undefined ? {} : { tokens: deps.tokens }),
      timeoutMs: settings.requestTimeoutSeconds * 1000,
    }),
  )
}

/** A check's target from a resolved environment (the app's profile, or the CLI's flags and profile). */
export function connectionTarget(
  environment: Pick<ResolvedEnvironment, 'baseUrl' | 'clientId' | 'redirectUri' | 'scopes' | 'tenantId'>,
  extra: Pick<ConnectionTarget, 'profile' | 'tokens' | 'timeoutMs'> = {},
): ConnectionTarget {
  return {
    baseUrl: environment.baseUrl,
    clientId: environment.clientId,
    redirectUri: environment.redirectUri,
    scopes: environment.scopes,
    tenantId: environment.tenantId,
    ...extra,
  }
}

/**
 * An address as the report may show it: no user name or password (a proxy URL from HTTPS_PROXY may carry them),
 * no query or fragment, no trailing slash. An unreadable address is shown as a placeholder, never echoed.
 */
export function safeAddress(address: string): string {
  try {
    const url = new URL(address)
    url.username = ''
    url.password = ''
    url.search = ''
    url.hash = ''
    return url.toString().replace(/\/+$/, '')
  } catch {
    return '(an address RosterDesk cannot read)'
  }
}

type StepOutcome =
  | { readonly state: 'ok'; readonly message: string; readonly certificates?: readonly CertificateSummary[] }
  | {
      readonly state: 'failed'
      readonly error: RosterDeskError
      readonly certificates?: readonly CertificateSummary[]
    }

function ok(message: string, certificates?: readonly CertificateSummary[]): StepOutcome {
  return certificates === undefined ? { state: 'ok', message } : { state: 'ok', message, certificates }
}

function failed(error: RosterDeskError, certificates?: readonly CertificateSummary[]): StepOutcome {
  return certificates === undefined ? { state: 'failed', error } : { state: 'failed', error, certificates }
}

function skipped(id: ConnectionStepId, label: string, reason: string): ConnectionStep {
  return { id, label, state: 'skipped', ms: 0, message: reason }
}

/** Runs one step on the clock; a throw becomes the failed step, with its code and message. */
async function timedStep(
  { clock, logger }: Pick<ConnectionCheckDeps, 'clock' | 'logger'>,
  id: ConnectionStepId,
  label: string,
  url: string,
  body: () => Promise<StepOutcome>,
): Promise<ConnectionStep> {
  const start = clock.now()
  let outcome: StepOutcome
  try {
    outcome = await body()
  } catch (error) {
    outcome = failed(stepError(error, url))
  }
  const ms = Math.max(0, clock.now() - start)
  if (outcome.state === 'failed') logger?.warn(`Connection check: "${label}" failed`, outcome.error)
  const certificates = outcome.certificates?.length ? { certificates: [...outcome.certificates] } : {}
  if (outcome.state === 'ok') return { id, label, state: 'ok', ms, message: outcome.message, ...certificates }
  return {
    id,
    label,
    state: 'failed',
    ms,
    message: outcome.error.message,
    code: outcome.error.code,
    ...certificates,
  }
}

/**
 * A step's failure as a RosterDeskError: a probe's Node error read by the one classifier (its message names the
 * host at `url`), a RosterDeskError as it is. The list client wraps a failure it would retry in a sync ("tried
 * once"); the failure itself is what the step says.
 */
function stepError(error: unknown, url: string): RosterDeskError {
  if (error instanceof RosterDeskError) return error.cause instanceof RosterDeskError ? error.cause : error
  return classifyNetworkFailure(error, { what: 'the payroll service', url })
}

/** The DNS, TCP and TLS steps: of the service's host when direct, of the proxy's when one is in use. */
async function networkSteps(
  deps: ConnectionCheckDeps,
  base: URL,
  progress: Progress,
): Promise<ConnectionStep[]> {
  const { probes } = deps
  const route = progress.route
  const serviceHost = hostOf(base)
  const servicePort = portOf(base)
  const viaProxy = route?.kind === 'proxy' ? new URL(route.url) : undefined
  const host = viaProxy === undefined ? serviceHost : hostOf(viaProxy)
  const port = viaProxy === undefined ? servicePort : portOf(viaProxy)
  const who = viaProxy === undefined ? '' : 'proxy '
  // What a probe's failure is said about: the proxy's host when one is in use, else the service's.
  const probeUrl = `${viaProxy?.protocol ?? base.protocol}//${viaProxy?.host ?? base.host}`
  const dnsLabel = `DNS: ${who}${host}`
  const tcpLabel = `TCP: ${who}${host}:${port}`
  const tlsLabel = `TLS: ${serviceHost}:${servicePort}${viaProxy === undefined ? '' : ` through the proxy`}`
  const unseen =
    probes.unseen ?? 'Not visible here: the network stack resolves, connects and checks certificates itself.'
  const steps: ConnectionStep[] = []
  const direct = viaProxy === undefined

  if (route === undefined) {
    const reason = 'The proxy in use is not known (see the proxy step).'
    return [
      skipped('dns', dnsLabel, reason),
      skipped('tcp', tcpLabel, reason),
      skipped('tls', tlsLabel, reason),
    ]
  }
  const dns = probes.dns
  const dnsStep =
    dns === undefined
      ? skipped('dns', dnsLabel, unseen)
      : await timedStep(deps, 'dns', dnsLabel, probeUrl, async () => {
          const answer = await dns(host).catch(aboutProxy(route))
          const addresses = answer.addresses.join(', ')
          return ok(
            direct
              ? `resolves to ${addresses}`
              : `the proxy's host resolves to ${addresses} (the proxy looks up ${serviceHost} itself)`,
          )
        })
  steps.push(dnsStep)
  const tcp = probes.tcp
  let tcpStep: ConnectionStep
  if (dnsStep.state === 'failed') tcpStep = skipped('tcp', tcpLabel, `The name ${host} did not resolve.`)
  else if (tcp === undefined) tcpStep = skipped('tcp', tcpLabel, unseen)
  else {
    tcpStep = await timedStep(deps, 'tcp', tcpLabel, probeUrl, async () => {
      const answer = await tcp(host, port).catch(aboutProxy(route))
      return ok(
        direct
          ? `connected to ${answer.address}`
          : `connected to the proxy at ${answer.address} (the proxy connects to ${serviceHost}:${servicePort} itself)`,
      )
    })
  }
  steps.push(tcpStep)
  const tls = probes.tls
  let tlsStep: ConnectionStep
  if (base.protocol !== 'https:') {
    tlsStep = skipped(
      'tls',
      tlsLabel,
      'The service address starts with http://: no TLS, nothing is encrypted.',
    )
  } else if (dnsStep.state === 'failed')
    tlsStep = skipped('tls', tlsLabel, `The name ${host} did not resolve.`)
  else if (tcpStep.state === 'failed') tlsStep = skipped('tls', tlsLabel, `No connection to ${host}:${port}.`)
  else if (tls === undefined) tlsStep = skipped('tls', tlsLabel, unseen)
  else {
    tlsStep = await timedStep(deps, 'tls', tlsLabel, base.toString(), async () => {
      const answer = await tls(serviceHost, servicePort, route)
      if (answer.trusted) {
        const protocol = answer.protocol === undefined ? '' : `${answer.protocol}, `
        return ok(`${protocol}the certificate chain is trusted by ${answer.trustSet}`, answer.certificates)
      }
      const problem =
        answer.problem ??
        new RosterDeskError('certificate', `The certificate chain is not trusted by ${answer.trustSet}.`)
      return failed(problem, answer.certificates)
    })
  }
  steps.push(tlsStep)

  const firstFailure = steps.find((step) => step.state === 'failed')
  if (direct && firstFailure !== undefined) {
    progress.blocked = `Not tried: the ${firstFailure.id.toUpperCase()} step failed, so the service cannot be reached.`
  }
  return steps
}

/**
 * Behind a proxy, the DNS and TCP probes concern the proxy's host: their failure is handed to the classifier as
 * the proxy's, so the message says to check the proxy setting, not the service address.
 */
function aboutProxy(route: ProxyRoute): (error: unknown) => never {
  return (error) => {
    if (route.kind === 'direct' || error instanceof RosterDeskError) throw error
    const reason = networkFailureReason(error) ?? 'unknown'
    throw new NetworkFailureError(reason, { proxy: route.url }, { cause: error })
  }
}

function hostOf(url: URL): string {
  // IPv6 literals come bracketed from URL; the probes want the bare address.
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}

/**
 * Adds the certificates the runtime saw for the service (the app's verify proc) to a step that has none; a probe
 * that cannot say leaves the step as it is.
 */
async function withCertificates(
  probes: ConnectionProbes,
  url: string,
  outcome: StepOutcome,
): Promise<StepOutcome> {
  if (probes.certificates === undefined || outcome.certificates !== undefined) return outcome
  const certificates = await probes.certificates(url).catch(() => undefined)
  if (certificates === undefined || certificates.length === 0) return outcome
  return { ...outcome, certificates }
}

/** A fetch that remembers the last answer's status and headers, for steps whose answer is not JSON by design. */
function observing(fetch: FetchLike): { fetch: FetchLike; last: () => Response | undefined } {
  let last: Response | undefined
  return {
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      last = response
      return response
    },
    last: () => last,
  }
}

function answerOf(response: Response): HttpJsonResponse {
  return {
    status: response.status,
    ok: response.ok,
    headers: response.headers,
    body: undefined,
    bodyIsJson: false,
  }
}

/**
 * GET of the authorize URL without following redirects: any answer but a 404 (no such endpoint: the address is
 * wrong), a 407 (a proxy wants credentials) or a 5xx (the service, or a gateway before it, failing) counts. The
 * answer is a sign-in page or a redirect to one by design, so a web page is what is expected here.
 */
async function authorizeStep(deps: ConnectionCheckDeps, target: ConnectionTarget): Promise<StepOutcome> {
  const url = buildAuthorizeUrl({
    baseUrl: target.baseUrl,
    clientId: target.clientId,
    redirectUri: target.redirectUri,
    scope: target.scopes,
    state: CHECK_STATE,
  })
  const seen = observing(deps.fetch)
  let thrown: unknown
  try {
    await requestJson(seen.fetch, {
      url,
      method: 'GET',
      maxBodyBytes: AUTHORIZE_ANSWER_MAX_BYTES,
      ...requestOptions(deps, target),
    })
  } catch (error) {
    thrown = error
  }
  const response = seen.last()
  if (response === undefined) throw thrown
  const status = response.status
  const problem = answerProblem(response, AUTHORIZE_PATH, target.baseUrl)
  if (problem !== undefined) return failed(problem)
  const location = response.headers.get('location')
  if (status >= 300 && status < 400 && location !== null) {
    const to = redirectOrigin(location, url)
    return ok(`HTTP ${status}, redirecting to ${to}`)
  }
  const page = (response.headers.get('content-type') ?? '').toLowerCase().includes('text/html')
    ? ' (a web page)'
    : ''
  return ok(`HTTP ${status}${page}`)
}

/**
 * POST of a made-up code to the token endpoint (spec 4.2), without the client secret (the check never sends a
 * secret to an address it is testing): a JSON answer, even an OAuth refusal such as invalid_grant or
 * invalid_client, proves the endpoint is there and answers JSON. A web page, a 404 or a 5xx does not.
 */
async function tokenStep(deps: ConnectionCheckDeps, target: ConnectionTarget): Promise<StepOutcome> {
  const response = await requestJson(deps.fetch, {
    url: `${target.baseUrl.replace(/\/+$/, '')}${TOKEN_PATH}`,
    method: 'POST',
    json: {
      code: CHECK_CODE,
      clientId: target.clientId,
      redirectUri: target.redirectUri,
      grantType: 'authorization_code',
    },
    maxBodyBytes: TOKEN_ANSWER_MAX_BYTES,
    ...requestOptions(deps, target),
  })
  const problem = httpProblem(response, TOKEN_PATH, target.baseUrl)
  if (problem !== undefined) return failed(problem)
  if (!response.bodyIsJson || response.body === undefined) {
    return failed(
      new RosterDeskError(
        'web-page',
        `The token endpoint answered HTTP ${response.status} with ${response.body === undefined && response.bodyIsJson ? 'nothing' : 'a page that is not JSON'}: a proxy's block page or a wrong service address may be in the way.`,
        { detail: `HTTP ${response.status}: not JSON` },
      ),
    )
  }
  if (response.ok) return ok(`HTTP ${response.status}, JSON`)
  const code = oauthErrorCode(response.body)
  const said = code === undefined ? 'JSON' : `JSON error ${code}`
  return ok(
    `HTTP ${response.status}, ${said} (as expected: the check sends a made-up code and no client secret)`,
  )
}

/** One page of one employee, with the tenant header, through the sync's list client (one attempt, no retry). */
async function listStep(
  deps: ConnectionCheckDeps,
  target: ConnectionTarget,
  tokens: AccessTokenSource,
): Promise<StepOutcome> {
  const client = new ListClient({
    endpoint: EMPLOYEE_LIST,
    baseUrl: target.baseUrl,
    tenantId: target.tenantId,
    fetch: deps.fetch,
    tokens,
    clock: deps.clock,
    random: () => 0.5,
    retry: { maxAttempts: 1 },
    maxResponseBytes: TOKEN_ANSWER_MAX_BYTES,
    ...(target.timeoutMs === undefined ? {} : { timeoutMs: target.timeoutMs }),
  })
  const page = await client.fetchPage({ page: 1, limit: 1 }, deps.signal)
  const tenant = target.tenantId.trim() === '' ? 'no tenant header' : `tenant ${target.tenantId.trim()}`
  return ok(
    `answered with ${page.rows.length} of ${page.totalCount.toLocaleString('en-US')} employees (${tenant})`,
  )
}

function requestOptions(
  deps: ConnectionCheckDeps,
  target: ConnectionTarget,
): { timeoutMs?: number; signal?: AbortSignal } {
  return {
    ...(target.timeoutMs === undefined ? {} : { timeoutMs: target.timeoutMs }),
    ...(deps.signal === undefined ? {} : { signal: deps.signal }),
  }
}

/** 404, 407 and 5xx as their errors; undefined for any other status. */
function answerProblem(response: Response, path: string, url: string): RosterDeskError | undefined {
  return httpProblem(answerOf(response), path, url)
}

function httpProblem(response: HttpJsonResponse, path: string, url: string): RosterDeskError | undefined {
  const status = response.status
  if (status === 404) {
    return new RosterDeskError(
      'not-found',
      `The service has no ${path} at this address (HTTP 404). Check the service address.`,
      { detail: `HTTP 404 for ${path}` },
    )
  }
  // A proxy the runtime does not know of (a transparent one) answering for the service: the one classifier words it.
  if (status === 407)
    return classifyNetworkFailure(new NetworkFailureError('proxy-407', {}), {
      what: 'the payroll service',
      url,
    })
  if (status >= 500) return statusError(response)
  return undefined
}

/** Where a redirect leads, as an origin only (the rest of the address may carry the request's parameters). */
function redirectOrigin(location: string, from: string): string {
  try {
    return new URL(location, from).origin
  } catch {
    return 'an address RosterDesk cannot read'
  }
}
