/**
 * Switches for everything the spec leaves "not shown", so the client can be tested against each
 * plausible answer rather than the one we happen to guess.
 */

export type TokenStyle = 'snake' | 'camel' | 'wrapped' | 'no-expiry' | 'unrecognised'

export const TOKEN_STYLES: readonly TokenStyle[] = ['snake', 'camel', 'wrapped', 'no-expiry', 'unrecognised']

export interface FaultBehaviours {
  /** Probability of 429 with a Retry-After header and a JSON error body. */
  rateLimit: number
  rateLimitRetryAfterSeconds: number
  /** Probability of 502 or 503 with an HTML body, like a proxy's error page. */
  serverErrorHtml: number
  /** Probability of 200 with a JSON content type whose body stops part-way. */
  truncatedJson: number
}

export interface ChurnBehaviour {
  add: number
  remove: number
  listRequests: number
}

/** Changes employees' fields between syncs, as payroll does: a status or pay cycle moves, the employee stays. */
export interface MutateBehaviour {
  /** Employees (picked anywhere in the list) whose status and pay cycle both move on, per such request. */
  rows: number
  listRequests: number
}

export interface SandboxBehaviours {
  tokenStyle: TokenStyle
  accessTokenTtlSeconds: number
  /** true: a refresh rotates the refresh token (the old one stops working); false: it is omitted and kept. */
  refreshTokenOnRefresh: boolean
  /** The refresh endpoint answers 400 invalid_grant, as when the user revoked access. */
  rejectRefresh: boolean
  /** null: no maximum. The envelope's `limit` always shows the size actually used. */
  maxPageSize: number | null
  defaultPageSize: number
  /** Added before every /employees/list response. */
  latencyMs: number
  /** Require `vnd.a1.tenant-id` on the list; a wrong tenant id is refused either way. */
  tenantRequired: boolean
  /** Drawn per list request from a seeded generator, so a seed always yields the same fault sequence. */
  faults: FaultBehaviours
  /** On each of the next `listRequests` list requests, add rows at the front and remove early ones. */
  churn: ChurnBehaviour | null
  /** On each of the next `listRequests` list requests, change the status and pay cycle of `rows` employees. */
  mutate: MutateBehaviour | null
}

/** What options and setBehaviours accept: any subset, including a subset of `faults`. */
export type SandboxBehavioursPatch = Partial<Omit<SandboxBehaviours, 'faults'>> & {
  faults?: Partial<FaultBehaviours>
}

export const DEFAULT_BEHAVIOURS: SandboxBehaviours = Object.freeze({
  tokenStyle: 'snake',
  accessTokenTtlSeconds: 3600,
  refreshTokenOnRefresh: true,
  rejectRefresh: false,
  maxPageSize: 1000,
  defaultPageSize: 20,
  latencyMs: 0,
  tenantRequired: false,
  faults: Object.freeze({
    rateLimit: 0,
    rateLimitRetryAfterSeconds: 1,
    serverErrorHtml: 0,
    truncatedJson: 0,
  }),
  churn: null,
  mutate: null,
}) as SandboxBehaviours

function requirePositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number >= 1`)
}

function requireNonNegativeInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number >= 0`)
}

function requireProbability(name: string, value: number): void {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be a probability between 0 and 1`)
}

export function validateBehaviours(b: SandboxBehaviours): void {
  if (!TOKEN_STYLES.includes(b.tokenStyle)) {
    throw new RangeError(`tokenStyle must be one of ${TOKEN_STYLES.join(', ')}`)
  }
  requirePositiveInteger('accessTokenTtlSeconds', b.accessTokenTtlSeconds)
  if (b.maxPageSize !== null) requirePositiveInteger('maxPageSize', b.maxPageSize)
  requirePositiveInteger('defaultPageSize', b.defaultPageSize)
  if (!(Number.isFinite(b.latencyMs) && b.latencyMs >= 0)) throw new RangeError('latencyMs must be >= 0')
  requireProbability('faults.rateLimit', b.faults.rateLimit)
  requireProbability('faults.serverErrorHtml', b.faults.serverErrorHtml)
  requireProbability('faults.truncatedJson', b.faults.truncatedJson)
  requireNonNegativeInteger('faults.rateLimitRetryAfterSeconds', b.faults.rateLimitRetryAfterSeconds)
  if (b.churn !== null) {
    requireNonNegativeInteger('churn.add', b.churn.add)
    requireNonNegativeInteger('churn.remove', b.churn.remove)
    requireNonNegativeInteger('churn.listRequests', b.churn.listRequests)
  }
  if (b.mutate !== null) {
    requireNonNegativeInteger('mutate.rows', b.mutate.rows)
    requireNonNegativeInteger('mutate.listRequests', b.mutate.listRequests)
  }
}

/** Applies a patch, validating the result; throws RangeError and leaves nothing half-applied. */
export function mergeBehaviours(
  current: SandboxBehaviours,
  patch: SandboxBehavioursPatch,
): SandboxBehaviours {
  const merged: SandboxBehaviours = {
    ...current,
    ...withoutUndefined(patch),
    faults: { ...current.faults, ...withoutUndefined(patch.faults ?? {}) },
    churn: patch.churn === undefined ? current.churn : patch.churn === null ? null : { ...patch.churn },
    mutate: patch.mutate === undefined ? current.mutate : patch.mutate === null ? null : { ...patch.mutate },
  }
  validateBehaviours(merged)
  return merged
}

export function copyBehaviours(b: SandboxBehaviours): SandboxBehaviours {
  return {
    ...b,
    faults: { ...b.faults },
    churn: b.churn === null ? null : { ...b.churn },
    mutate: b.mutate === null ? null : { ...b.mutate },
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
