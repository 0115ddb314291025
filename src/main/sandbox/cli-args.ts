import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { PAGE_ANSWER_FAULTS, REDIRECT_STATUSES, STALL_MODES, TOKEN_STYLES } from './behaviours'
import type {
  PageAnswerFault,
  RedirectStatus,
  SandboxBehavioursPatch,
  StallMode,
  TokenStyle,
} from './behaviours'
import { MOVED_LIST_PATH } from './employees'
import type { SandboxOptions } from './server'

export const USAGE = `Usage: npm run sandbox -- [options]
  --port N               listen on 127.0.0.1:N (default: a free port)
  --size N               number of employees (default 2500)
  --seed N               data and fault seed (default 1)
  --token-style S        ${TOKEN_STYLES.join(' | ')}
  --token-ttl SECONDS    access token lifetime (default 3600)
  --max-page-size N      largest page served, or 'none' (default 1000); a larger limit is served at N
  --refuse-large-limit N  answer 400 to a limit above N
  --latency MS           delay added to every /employees/list response
  --rate-limit P         probability of 429 per list request
  --retry-after S        Retry-After seconds on 429 (default 1)
  --fail-5xx P           probability of an HTML 502/503 per list request
  --truncate P           probability of a truncated JSON body per list request
  --churn A,R,N          on each of the next N list requests add A rows at the front, remove R
  --mutate M,N           on each of the next N list requests change the status and pay cycle of M employees
  --lie-total N          the envelope claims N employees; the rows stay the real ones
  --missing-uuid P:R     row R of page P comes without its UUID
  --duplicate-uuid P:R   row R of page P carries the first employee's UUID, on every pass
  --numeric-strings      envelope counts as strings of digits ("totalCount": "3000")
  --oversized-page P:MB  page P streams a body of MB megabytes
  --oversized-field P:R:N  row R of page P gains a notes field of N characters
  --stall P:MODE[:N]     the next N (default: every) requests for page P stall: ${STALL_MODES.join(' | ')}
  --redirect-list S:TO   /employees/list answers with redirect S (${REDIRECT_STATUSES.join(', ')}) to 'moved'
                         (${MOVED_LIST_PATH} here) or to an origin (http://127.0.0.1:8081)
  --echo-limit-above N   a limit above N is served at N rows, the envelope's limit saying the one asked
  --page-answer P:FAULT  every request for page P is answered with FAULT:
                         ${PAGE_ANSWER_FAULTS.join(' | ')}
  --odd-field-names      every row gains fields named like 'Cost Center', '=HYPERLINK(…)', '__proto__'
  --many-fields N        every row gains N fields (field00001, …)
  --iban-field           every row gains an "iban" field (a German IBAN from its UUID)
  --tenant-required      refuse list requests without vnd.a1.tenant-id
  --token-expires-in J   the token answers' lifetime written as JSON text J (9223372036854775807, 1e308, '"3600"')
  --token-characters T:S the access or refresh token (T) served holds S, a JSON string's text (\\r\\n, \\u0001, é)
  --refresh-error-in-200 the refresh endpoint answers 200 {"error":"invalid_grant"} with no tokens
  --exchange-not-json    the code exchange answers 200 with a web page
  --refresh-redirect     the refresh endpoint answers 303 to a single sign-on page
  --reject-refresh       the refresh endpoint answers invalid_grant
  --no-rotate-refresh    refreshes keep the old refresh token instead of issuing a new one
  --redirect-uri URI     register a redirect URI (repeatable; replaces the defaults)
  --tls-cert FILE        serve HTTPS with this PEM certificate (with --tls-key)
  --tls-key FILE         the PEM private key of --tls-cert
  --lifetime SECONDS     stop after this long
  --log                  log requests to stderr`

/** A bad command line: reported as one line on stderr, exit code 2. */
export class UsageError extends Error {}

function integer(
  name: string,
  text: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (text === undefined) return undefined
  const value = Number(text)
  if (!/^-?[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `between ${min} and ${max}`
    throw new UsageError(`--${name} must be a whole number ${range}, got '${text}'`)
  }
  return value
}

function number(name: string, text: string | undefined, min: number, max = Infinity): number | undefined {
  if (text === undefined) return undefined
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a number between ${min} and ${max}, got '${text}'`)
  }
  return value
}

function tokenStyle(text: string | undefined): TokenStyle | undefined {
  if (text === undefined) return undefined
  const style = TOKEN_STYLES.find((s) => s === text)
  if (style === undefined) throw new UsageError(`--token-style must be one of ${TOKEN_STYLES.join(', ')}`)
  return style
}

/** Turns the command line into sandbox options; throws UsageError with a one-line message. */
export function parseCliArgs(argv: readonly string[]): SandboxOptions | 'help' {
  let values
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        port: { type: 'string' },
        size: { type: 'string' },
        seed: { type: 'string' },
        'token-style': { type: 'string' },
        'token-ttl': { type: 'string' },
        'max-page-size': { type: 'string' },
        'refuse-large-limit': { type: 'string' },
        latency: { type: 'string' },
        'rate-limit': { type: 'string' },
        'retry-after': { type: 'string' },
        'fail-5xx': { type: 'string' },
        truncate: { type: 'string' },
        churn: { type: 'string' },
        mutate: { type: 'string' },
        'lie-total': { type: 'string' },
        'missing-uuid': { type: 'string' },
        'duplicate-uuid': { type: 'string' },
        'numeric-strings': { type: 'boolean' },
        'oversized-page': { type: 'string' },
        'oversized-field': { type: 'string' },
        stall: { type: 'string' },
        'redirect-list': { type: 'string' },
        'echo-limit-above': { type: 'string' },
        'page-answer': { type: 'string' },
        'odd-field-names': { type: 'boolean' },
        'iban-field': { type: 'boolean' },
        'many-fields': { type: 'string' },
        'tenant-required': { type: 'boolean' },
        'token-expires-in': { type: 'string' },
        'token-characters': { type: 'string' },
        'refresh-error-in-200': { type: 'boolean' },
        'exchange-not-json': { type: 'boolean' },
        'refresh-redirect': { type: 'boolean' },
        'reject-refresh': { type: 'boolean' },
        'no-rotate-refresh': { type: 'boolean' },
        'redirect-uri': { type: 'string', multiple: true },
        lifetime: { type: 'string' },
        log: { type: 'boolean' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
      },
    }).values
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  if (values.help === true) return 'help'

  const maxPageSizeText = values['max-page-size']
  const behaviours: SandboxBehavioursPatch = {
    tokenStyle: tokenStyle(values['token-style']),
    accessTokenTtlSeconds: integer('token-ttl', values['token-ttl'], 1),
    maxPageSize: maxPageSizeText === 'none' ? null : integer('max-page-size', maxPageSizeText, 1),
    refuseLargeLimit: integer('refuse-large-limit', values['refuse-large-limit'], 1),
    latencyMs: number('latency', values.latency, 0),
    faults: {
      rateLimit: number('rate-limit', values['rate-limit'], 0, 1),
      rateLimitRetryAfterSeconds: integer('retry-after', values['retry-after'], 0),
      serverErrorHtml: number('fail-5xx', values['fail-5xx'], 0, 1),
      truncatedJson: number('truncate', values.truncate, 0, 1),
    },
    tenantRequired: values['tenant-required'] === true ? true : undefined,
    rejectRefresh: values['reject-refresh'] === true ? true : undefined,
    refreshTokenOnRefresh: values['no-rotate-refresh'] === true ? false : undefined,
  }
  const churnText = values.churn
  if (churnText !== undefined) {
    const parts = churnText.split(',')
    if (parts.length !== 3) throw new UsageError(`--churn must be add,remove,requests, got '${churnText}'`)
    const [add, remove, listRequests] = parts.map((part) => integer('churn', part.trim(), 0) ?? 0)
    behaviours.churn = { add: add ?? 0, remove: remove ?? 0, listRequests: listRequests ?? 0 }
  }
  const mutateText = values.mutate
  if (mutateText !== undefined) {
    const parts = mutateText.split(',')
    if (parts.length !== 2) throw new UsageError(`--mutate must be rows,requests, got '${mutateText}'`)
    const [rows, listRequests] = parts.map((part) => integer('mutate', part.trim(), 0) ?? 0)
    behaviours.mutate = { rows: rows ?? 0, listRequests: listRequests ?? 0 }
  }
  Object.assign(
    behaviours,
    hostileFlags(values),
    tokenAnswerFlags(values),
    transportFlags(values['page-answer']),
  )
  // Issue 32, point 7 (field-names.ts).
  if (values['odd-field-names'] === true) behaviours.oddFieldNames = true
  // Issue 34, point 2: a bank-account field the service adds, sensitive by its name.
  if (values['iban-field'] === true) behaviours.ibanField = true
  const manyFields = integer('many-fields', values['many-fields'], 1)
  if (manyFields !== undefined) behaviours.manyFields = manyFields
  const lifetimeSeconds = number('lifetime', values.lifetime, 0)
  if (lifetimeSeconds === 0) throw new UsageError('--lifetime must be more than 0 seconds')
  return {
    port: integer('port', values.port, 0, 65535),
    size: integer('size', values.size, 0),
    seed: integer('seed', values.seed, 0),
    redirectUris: values['redirect-uri'],
    behaviours,
    lifetimeMs: lifetimeSeconds === undefined ? undefined : lifetimeSeconds * 1000,
    log: values.log === true ? (line) => process.stderr.write(`${line}\n`) : undefined,
    tls: tlsFiles(values['tls-cert'], values['tls-key']),
  }
}

/** --tls-cert and --tls-key read as PEM text: both or neither. */
function tlsFiles(cert: string | undefined, key: string | undefined): SandboxOptions['tls'] {
  if (cert === undefined && key === undefined) return undefined
  if (cert === undefined || key === undefined) throw new UsageError('--tls-cert and --tls-key go together')
  const read = (flag: string, path: string): string => {
    try {
      return readFileSync(path, 'utf8')
    } catch {
      throw new UsageError(`--${flag}: cannot read ${path}`)
    }
  }
  return { cert: read('tls-cert', cert), key: read('tls-key', key) }
}

/** `P:R`-style values: whole numbers >= 1 separated by colons, exactly `count` of them. */
function parts(name: string, text: string, count: number, shape: string): number[] {
  const values = text.split(':')
  if (values.length !== count) throw new UsageError(`--${name} must be ${shape}, got '${text}'`)
  return values.map((part) => integer(name, part.trim(), 1) ?? 1)
}

/** The hostile behaviours' flags (issue 12). */
function hostileFlags(values: {
  'lie-total'?: string
  'missing-uuid'?: string
  'duplicate-uuid'?: string
  'numeric-strings'?: boolean
  'oversized-page'?: string
  'oversized-field'?: string
  stall?: string
  'redirect-list'?: string
  'echo-limit-above'?: string
}): SandboxBehavioursPatch {
  const patch: SandboxBehavioursPatch = {}
  const lie = integer('lie-total', values['lie-total'], 0)
  if (lie !== undefined) patch.lieTotalCount = lie
  const position = (name: 'missing-uuid' | 'duplicate-uuid'): { page: number; row: number } | undefined => {
    const text = values[name]
    if (text === undefined) return undefined
    const [page = 1, row = 1] = parts(name, text, 2, 'page:row')
    return { page, row }
  }
  const missing = position('missing-uuid')
  if (missing !== undefined) patch.missingUuid = missing
  const duplicate = position('duplicate-uuid')
  if (duplicate !== undefined) patch.duplicateUuid = duplicate
  if (values['numeric-strings'] === true) patch.numericStrings = true
  const page = values['oversized-page']
  if (page !== undefined) {
    const [number = 1, megabytes = 1] = parts('oversized-page', page, 2, 'page:megabytes')
    patch.oversizedPage = { page: number, megabytes }
  }
  const field = values['oversized-field']
  if (field !== undefined) {
    const [number = 1, row = 1, characters = 1] = parts('oversized-field', field, 3, 'page:row:characters')
    patch.oversizedField = { page: number, row, characters }
  }
  const stall = values.stall
  if (stall !== undefined) {
    const [pageText = '', modeText = '', requestsText, ...rest] = stall.split(':')
    const mode = STALL_MODES.find((candidate): candidate is StallMode => candidate === modeText)
    if (mode === undefined || rest.length > 0) {
      throw new UsageError(`--stall must be page:${STALL_MODES.join('|')}[:requests], got '${stall}'`)
    }
    patch.stall = {
      page: integer('stall', pageText, 1) ?? 1,
      mode,
      requests: integer('stall', requestsText, 1) ?? Number.MAX_SAFE_INTEGER,
    }
  }
  const redirectText = values['redirect-list']
  if (redirectText !== undefined) {
    const colon = redirectText.indexOf(':')
    const status = REDIRECT_STATUSES.find((candidate) => String(candidate) === redirectText.slice(0, colon))
    const to = redirectText.slice(colon + 1)
    if (colon === -1 || status === undefined || to === '') {
      throw new UsageError(
        `--redirect-list must be status:moved or status:origin (status ${REDIRECT_STATUSES.join(', ')}), got '${redirectText}'`,
      )
    }
    patch.redirectList = { status: status satisfies RedirectStatus, to }
  }
  const echo = integer('echo-limit-above', values['echo-limit-above'], 1)
  if (echo !== undefined) patch.echoLimitAbove = echo
  return patch
}

/** The odd sign-in answers' flags (issue 32). */
function tokenAnswerFlags(values: {
  'token-expires-in'?: string
  'token-characters'?: string
  'refresh-error-in-200'?: boolean
  'exchange-not-json'?: boolean
  'refresh-redirect'?: boolean
}): SandboxBehavioursPatch {
  const patch: SandboxBehavioursPatch = {}
  const expiresIn = values['token-expires-in']
  if (expiresIn !== undefined) patch.tokenExpiresInJson = expiresIn
  const characters = values['token-characters']
  if (characters !== undefined) {
    const colon = characters.indexOf(':')
    const token = characters.slice(0, colon)
    let insert: unknown
    try {
      insert = JSON.parse(`"${characters.slice(colon + 1)}"`)
    } catch {
      insert = undefined
    }
    if ((token !== 'access' && token !== 'refresh') || typeof insert !== 'string' || insert === '') {
      throw new UsageError(
        `--token-characters must be access:TEXT or refresh:TEXT (TEXT as inside a JSON string), got '${characters}'`,
      )
    }
    patch.tokenCharacters = { token, insert }
  }
  if (values['refresh-error-in-200'] === true) patch.refreshErrorIn200 = true
  if (values['exchange-not-json'] === true) patch.exchangeNotJson = true
  if (values['refresh-redirect'] === true) patch.refreshRedirect = true
  return patch
}

/** The list page's HTTP-layer fault flag (issue 32): --page-answer P:FAULT. */
function transportFlags(text: string | undefined): SandboxBehavioursPatch {
  if (text === undefined) return {}
  const [pageText = '', faultText = '', ...rest] = text.split(':')
  const fault = PAGE_ANSWER_FAULTS.find((candidate): candidate is PageAnswerFault => candidate === faultText)
  if (fault === undefined || rest.length > 0) {
    throw new UsageError(`--page-answer must be page:${PAGE_ANSWER_FAULTS.join('|')}, got '${text}'`)
  }
  return { pageAnswer: { page: integer('page-answer', pageText, 1) ?? 1, fault } }
}
