import {
  DEFAULT_FIELD_NAME_BEHAVIOURS,
  validateFieldNameBehaviours,
  type FieldNameBehaviours,
} from './field-names'

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

/** A row of a page as served: `page` as requested, `row` 1-based within it. */
export interface PagePosition {
  page: number
  row: number
}

export type StallMode = 'headers' | 'silent'
export const STALL_MODES: readonly StallMode[] = ['headers', 'silent']

/** The statuses that redirect (Fetch standard). */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308
export const REDIRECT_STATUSES: readonly RedirectStatus[] = [301, 302, 303, 307, 308]

/**
 * /employees/list answers every request with a redirect (issue 22): `to: 'moved'` names the list's new path on
 * this sandbox (`MOVED_LIST_PATH`, employees.ts, which serves the list), as a service that moved it would; an
 * origin (`http://127.0.0.1:PORT`) sends the client there, the same path and query.
 */
export interface ListRedirect {
  status: RedirectStatus
  to: 'moved' | string
}

/**
 * A hostile service (issue 12): answers a client must refuse at once, or bound in time and size. Each is off
 * (null or false) by default; positions count pages as requested and rows from 1 within the page.
 */
export interface HostileBehaviours {
  /** The envelope claims this many employees (totalPages to match) while the rows stay the real ones. */
  lieTotalCount: number | null
  /** The row at this position comes without its UUID. */
  missingUuid: PagePosition | null
  /** The row at this position carries the UUID of the list's first employee, on every request (every pass). */
  duplicateUuid: PagePosition | null
  /** Envelope counts written as strings of digits: "totalCount": "3000". */
  numericStrings: boolean
  /** This page streams a JSON body of `megabytes` MB (rows repeated), slowly enough to be refused part-way. */
  oversizedPage: { page: number; megabytes: number } | null
  /** The row at this position gains a `notes` field of this many characters. */
  oversizedField: (PagePosition & { characters: number }) | null
  /**
   * The next `requests` requests for this page stall: 'headers' sends the status line, headers and the start of
   * the body and then nothing; 'silent' never answers at all. Later requests are answered normally.
   */
  stall: { page: number; mode: StallMode; requests: number } | null
  /** See `ListRedirect`. */
  redirectList: ListRedirect | null
  /**
   * A `limit` above this is served at this many rows a page while the envelope's `limit` says the one asked (and
   * `totalPages` to match): a service that echoes the request instead of saying the size it used (issue 22).
   */
  echoLimitAbove: number | null
}

export interface SandboxBehaviours extends HostileBehaviours, FieldNameBehaviours {
  tokenStyle: TokenStyle
  accessTokenTtlSeconds: number
  /** true: a refresh rotates the refresh token (the old one stops working); false: it is omitted and kept. */
  refreshTokenOnRefresh: boolean
  /** The refresh endpoint answers 400 invalid_grant, as when the user revoked access. */
  rejectRefresh: boolean
  /** null: no maximum. The envelope's `limit` always shows the size actually used. */
  maxPageSize: number | null
  /** null: any `limit` is served (up to `maxPageSize`). A number: a larger `limit` is refused with 400. */
  refuseLargeLimit: number | null
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
  refuseLargeLimit: null,
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
  lieTotalCount: null,
  missingUuid: null,
  duplicateUuid: null,
  numericStrings: false,
  oversizedPage: null,
  oversizedField: null,
  stall: null,
  redirectList: null,
  echoLimitAbove: null,
  // Issue 32, point 7: fields named as a clerk never would, or thousands of them (field-names.ts).
  ...DEFAULT_FIELD_NAME_BEHAVIOURS,
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
  if (b.refuseLargeLimit !== null) requirePositiveInteger('refuseLargeLimit', b.refuseLargeLimit)
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
  if (b.lieTotalCount !== null) requireNonNegativeInteger('lieTotalCount', b.lieTotalCount)
  for (const [name, position] of [
    ['missingUuid', b.missingUuid],
    ['duplicateUuid', b.duplicateUuid],
    ['oversizedField', b.oversizedField],
  ] as const) {
    if (position === null) continue
    requirePositiveInteger(`${name}.page`, position.page)
    requirePositiveInteger(`${name}.row`, position.row)
  }
  if (b.oversizedPage !== null) {
    requirePositiveInteger('oversizedPage.page', b.oversizedPage.page)
    requirePositiveInteger('oversizedPage.megabytes', b.oversizedPage.megabytes)
  }
  if (b.oversizedField !== null)
    requirePositiveInteger('oversizedField.characters', b.oversizedField.characters)
  if (b.stall !== null) {
    requirePositiveInteger('stall.page', b.stall.page)
    if (!STALL_MODES.includes(b.stall.mode))
      throw new RangeError(`stall.mode must be one of ${STALL_MODES.join(', ')}`)
    requireNonNegativeInteger('stall.requests', b.stall.requests)
  }
  if (b.redirectList !== null) validateListRedirect(b.redirectList)
  if (b.echoLimitAbove !== null) requirePositiveInteger('echoLimitAbove', b.echoLimitAbove)
  // Issue 32, point 7.
  validateFieldNameBehaviours(b)
}

function validateListRedirect(redirect: ListRedirect): void {
  if (!REDIRECT_STATUSES.includes(redirect.status)) {
    throw new RangeError(`redirectList.status must be one of ${REDIRECT_STATUSES.join(', ')}`)
  }
  if (redirect.to === 'moved') return
  let origin: string | undefined
  try {
    const url = new URL(redirect.to)
    origin = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined
  } catch {
    origin = undefined
  }
  if (origin !== redirect.to) {
    throw new RangeError("redirectList.to must be 'moved' or an origin such as http://127.0.0.1:8080")
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
    ...copyHostile({ ...current, ...withoutUndefined(patch) }),
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
    ...copyHostile(b),
  }
}

/** The hostile switches with their position objects copied, so a caller's object is never shared. */
function copyHostile(b: HostileBehaviours): HostileBehaviours {
  const copy = <T extends object>(value: T | null): T | null => (value === null ? null : { ...value })
  return {
    lieTotalCount: b.lieTotalCount,
    missingUuid: copy(b.missingUuid),
    duplicateUuid: copy(b.duplicateUuid),
    numericStrings: b.numericStrings,
    oversizedPage: copy(b.oversizedPage),
    oversizedField: copy(b.oversizedField),
    stall: copy(b.stall),
    redirectList: copy(b.redirectList),
    echoLimitAbove: b.echoLimitAbove,
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
