import {
  CONNECTION_STEP_IDS,
  type ConnectionReport,
  type ConnectionStep,
  type ConnectionStepId,
} from '../../../shared/connection-report-schema'
import type { Settings } from '../../../shared/settings-schema'
import type { AccessTokenSource } from '../api/access-token-source'
import { RosterDeskError } from '../errors'
import {
  missingConfiguration,
  resolveEnvironment,
  type DemoEnvironment,
  type ResolvedEnvironment,
} from '../settings/resolve-environment'
import type { ConnectionCheckDeps, ConnectionTarget } from './check-inputs'
import { networkSteps, type Progress } from './network-steps'
import { authorizeStep, listStep, tokenStep } from './service-steps'
import { failed, ok, skipped, stepError, timedStep, withCertificates, type StepOutcome } from './step-outcome'
import { resolveFormatLocale } from '../../../shared/locale-format'

/**
 * "Test connection" (Settings → Network) and `cli check`: the way from this computer to the payroll service tried
 * one step at a time, each timed and caught into a ConnectionStep, so IT reads where it stops and why. Pure Node:
 * what a runtime can see of the network (which proxy, DNS, TCP, the TLS chain, the certificates a request met)
 * comes from its `ConnectionProbes`; the service's own endpoints are asked through `fetch` with the sync's request
 * code (http-json's timeouts, size limits and redirect rule). The report holds no secret: no token, no client
 * secret (the token step sends none), no credentials in an address, no employee data (the list step counts).
 */

const SIGN_IN_FIRST = 'Sign in first: this step asks for one page of the employee list with your sign-in.'

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
  /** The computer's regional formats (AppInfo.systemLocale), for a profile whose formats are 'system'. */
  readonly systemLocale?: string
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
      locale: resolveFormatLocale(settings.formatLocale, deps.systemLocale),
    }),
  )
}

/** A check's target from a resolved environment (the app's profile, or the CLI's flags and profile). */
export function connectionTarget(
  environment: Pick<ResolvedEnvironment, 'baseUrl' | 'clientId' | 'redirectUri' | 'scopes' | 'tenantId'>,
  extra: Pick<ConnectionTarget, 'profile' | 'tokens' | 'timeoutMs' | 'locale'> = {},
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
