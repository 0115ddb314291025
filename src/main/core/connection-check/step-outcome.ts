import type {
  CertificateSummary,
  ConnectionStep,
  ConnectionStepId,
} from '../../../shared/connection-report-schema'
import { RosterDeskError } from '../errors'
import { classifyNetworkFailure } from '../net/network-failure'
import type { ConnectionCheckDeps, ConnectionProbes } from './check-inputs'

/** One step of a connection check as it ends: its outcome, timed and caught into the report's ConnectionStep. */

export type StepOutcome =
  | { readonly state: 'ok'; readonly message: string; readonly certificates?: readonly CertificateSummary[] }
  | {
      readonly state: 'failed'
      readonly error: RosterDeskError
      readonly certificates?: readonly CertificateSummary[]
    }

export function ok(message: string, certificates?: readonly CertificateSummary[]): StepOutcome {
  return certificates === undefined ? { state: 'ok', message } : { state: 'ok', message, certificates }
}

export function failed(error: RosterDeskError, certificates?: readonly CertificateSummary[]): StepOutcome {
  return certificates === undefined ? { state: 'failed', error } : { state: 'failed', error, certificates }
}

export function skipped(id: ConnectionStepId, label: string, reason: string): ConnectionStep {
  return { id, label, state: 'skipped', ms: 0, message: reason }
}

/** Runs one step on the clock; a throw becomes the failed step, with its code and message. */
export async function timedStep(
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
export function stepError(error: unknown, url: string): RosterDeskError {
  if (error instanceof RosterDeskError) return error.cause instanceof RosterDeskError ? error.cause : error
  return classifyNetworkFailure(error, { what: 'the payroll service', url })
}

/**
 * Adds the certificates the runtime saw for the service (the app's verify proc) to a step that has none; a probe
 * that cannot say leaves the step as it is.
 */
export async function withCertificates(
  probes: ConnectionProbes,
  url: string,
  outcome: StepOutcome,
): Promise<StepOutcome> {
  if (probes.certificates === undefined || outcome.certificates !== undefined) return outcome
  const certificates = await probes.certificates(url).catch(() => undefined)
  if (certificates === undefined || certificates.length === 0) return outcome
  return { ...outcome, certificates }
}
