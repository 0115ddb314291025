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

// ---- Odd sign-in answers (issue 32, points 1, 2 and 8) ----

/** A token the sign-in answers serve with `insert` in its middle (see `TokenAnswerBehaviours.tokenCharacters`). */
export interface TokenCharacters {
  token: 'access' | 'refresh'
  insert: string
}

/** Where `refreshRedirect` sends a refresh: a single-sign-on page on this sandbox (oauth.ts serves it). */
export const SSO_PAGE_PATH = '/sso/login'

/**
 * Odd answers of the token endpoints (issue 32): the code exchange (/oauthv1/token) and the refresh
 * (/oauth/token). Each is off (null or false) by default.
 */
export interface TokenAnswerBehaviours {
  /**
   * JSON text served as the answers' lifetime field in place of the real one (`9223372036854775807`, `1e308`,
   * `-1`, `0`, `"3600"`); the grant itself still lives `accessTokenTtlSeconds`.
   */
  tokenExpiresInJson: string | null
  /** Characters put in the middle of the access or refresh token served; the sandbox accepts only the clean one. */
  tokenCharacters: TokenCharacters | null
  /** The refresh endpoint answers 200 with `{"error":"invalid_grant",…}` and no tokens. */
  refreshErrorIn200: boolean
  /** The code exchange answers 200 with a web page, not JSON. */
  exchangeNotJson: boolean
  /** The refresh endpoint answers 303 to a single-sign-on page (`SSO_PAGE_PATH`). */
  refreshRedirect: boolean
}

export const DEFAULT_TOKEN_ANSWER_BEHAVIOURS: TokenAnswerBehaviours = Object.freeze({
  tokenExpiresInJson: null,
  tokenCharacters: null,
  refreshErrorIn200: false,
  exchangeNotJson: false,
  refreshRedirect: false,
}) as TokenAnswerBehaviours

function validateTokenAnswers(b: TokenAnswerBehaviours): void {
  if (b.tokenExpiresInJson !== null) {
    try {
      JSON.parse(b.tokenExpiresInJson)
    } catch {
      throw new RangeError('tokenExpiresInJson must be JSON text, such as 9223372036854775807 or "3600"')
    }
  }
  if (b.tokenCharacters !== null) {
    if (b.tokenCharacters.token !== 'access' && b.tokenCharacters.token !== 'refresh') {
      throw new RangeError("tokenCharacters.token must be 'access' or 'refresh'")
    }
    if (b.tokenCharacters.insert === '') throw new RangeError('tokenCharacters.insert must not be empty')
  }
}

function copyTokenAnswers(b: TokenAnswerBehaviours): TokenAnswerBehaviours {
  return {
    tokenExpiresInJson: b.tokenExpiresInJson,
    tokenCharacters: b.tokenCharacters === null ? null : { ...b.tokenCharacters },
    refreshErrorIn200: b.refreshErrorIn200,
    exchangeNotJson: b.exchangeNotJson,
    refreshRedirect: b.refreshRedirect,
  }
}

// ---- Raw JSON values in a page (issue 32, points 5 and 6) ----

/**
 * Values a page carries as raw JSON text, as a service written in another language may send them and no
 * JSON.stringify of ours can: numbers beyond a double's precision or range (9007199254740993, 1e400), a list
 * nested 100,000 levels deep (issue 32). Off (null) by default.
 */
export interface RawValueBehaviours {
  /** The row at this position (on every request of its page) gains these fields, each written as this JSON text. */
  rawFields: (PagePosition & { fields: Record<string, string> }) | null
}

function validateRawValues(b: RawValueBehaviours): void {
  if (b.rawFields === null) return
  requirePositiveInteger('rawFields.page', b.rawFields.page)
  requirePositiveInteger('rawFields.row', b.rawFields.row)
  for (const [field, text] of Object.entries(b.rawFields.fields)) {
    try {
      JSON.parse(text)
    } catch {
      throw new RangeError(`rawFields.fields.${field} must be JSON text`)
    }
  }
}

function copyRawValues(b: RawValueBehaviours): RawValueBehaviours {
  return {
    rawFields: b.rawFields === null ? null : { ...b.rawFields, fields: { ...b.rawFields.fields } },
  }
}

// ---- Faults at the HTTP layer of a list page's answer (issue 32, points 3, 4 and 8) ----

/**
 * How a list page's answer is bent at the HTTP layer (issue 32, points 3, 4 and 8), on every request for it:
 * - 'continue-first': an interim `100 Continue` (unasked: no request sends Expect), then the page;
 * - 'early-hints-first': an interim `103 Early Hints`, then the page (1xx noise a client reads past);
 * - 'huge-headers': the page with 64 KB+ of headers (`HUGE_HEADER_BYTES`);
 * - 'not-modified': 304 without a body, to a request that asked for no cache validation;
 * - 'no-content': 204 without a body;
 * - 'maintenance': 500 with a JSON error body naming a maintenance window and a ticket (`MAINTENANCE_MESSAGE`);
 * - 'rate-limited-bare': 429 without Retry-After.
 */
export type PageAnswerFault =
  | 'continue-first'
  | 'early-hints-first'
  | 'huge-headers'
  | 'not-modified'
  | 'no-content'
  | 'maintenance'
  | 'rate-limited-bare'
export const PAGE_ANSWER_FAULTS: readonly PageAnswerFault[] = [
  'continue-first',
  'early-hints-first',
  'huge-headers',
  'not-modified',
  'no-content',
  'maintenance',
  'rate-limited-bare',
]

export interface TransportBehaviours {
  /** Every request for this page is answered with this fault (see `PageAnswerFault`). */
  pageAnswer: { page: number; fault: PageAnswerFault } | null
}

function validateTransport(b: TransportBehaviours): void {
  if (b.pageAnswer === null) return
  requirePositiveInteger('pageAnswer.page', b.pageAnswer.page)
  if (!PAGE_ANSWER_FAULTS.includes(b.pageAnswer.fault))
    throw new RangeError(`pageAnswer.fault must be one of ${PAGE_ANSWER_FAULTS.join(', ')}`)
}

function copyTransport(b: TransportBehaviours): TransportBehaviours {
  return { pageAnswer: b.pageAnswer === null ? null : { ...b.pageAnswer } }
}

export interface SandboxBehaviours
  extends
    HostileBehaviours,
    TokenAnswerBehaviours,
    RawValueBehaviours,
    TransportBehaviours,
    FieldNameBehaviours {
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
  ...DEFAULT_TOKEN_ANSWER_BEHAVIOURS,
  rawFields: null,
  pageAnswer: null,
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
  validateTokenAnswers(b)
  validateRawValues(b)
  validateTransport(b)
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
    ...copyTokenAnswers({ ...current, ...withoutUndefined(patch) }),
    ...copyRawValues({ ...current, ...withoutUndefined(patch) }),
    ...copyTransport({ ...current, ...withoutUndefined(patch) }),
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
    ...copyTokenAnswers(b),
    ...copyRawValues(b),
    ...copyTransport(b),
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
