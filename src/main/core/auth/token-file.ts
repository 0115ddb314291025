import { readFile, rm } from 'node:fs/promises'
import { z } from 'zod'
import type { FetchLike } from '../api/fetch-like'
import type { Clock } from '../clock'
import { writeFileDurably } from '../durable-fs'
import { RosterDeskError } from '../errors'
import { silentLogger, type Logger } from '../log/logger'
import type { SecretKey, SecretStore } from '../secrets/secret-store'
import type { AccessTokenSource } from '../api/access-token-source'
import { TokenManager } from './token-manager'
import { expiryText } from './token-response'
import { isHeaderValueCarried } from '../../../shared/header-value'
import { tenantIdProblem } from '../../../shared/settings-rules'

/** A token or tenant as a request can carry it (isHeaderValueCarried): never written, never read back otherwise. */
const carriedToken = z.string().refine(isHeaderValueCarried)

/**
 * The token file `cli login` writes and the other CLI commands read: where the tokens came from and the tokens.
 * `expiresAt` is ISO 8601, null when the service gave no lifetime; `refreshToken` is null when it gave none.
 * A token or tenant a request cannot carry makes it no token file (so none is written, and one written by an
 * earlier version is refused as such). Written with mode 0600 because it holds live credentials.
 */
export const tokenFileSchema = z.object({
  baseUrl: z.string().min(1),
  clientId: z.string().min(1),
  redirectUri: z.string().min(1),
  tenantId: z.string().refine((tenant) => tenantIdProblem(tenant) === undefined),
  accessToken: carriedToken,
  refreshToken: carriedToken.nullable(),
  expiresAt: z.iso.datetime().nullable(),
})
export type TokenFile = z.infer<typeof tokenFileSchema>

/** Writes the token file atomically with mode 0600. */
export async function writeTokenFile(path: string, tokens: TokenFile): Promise<void> {
  const checked = tokenFileSchema.parse(tokens)
  try {
    await writeFileDurably(path, `${JSON.stringify(checked, null, 2)}\n`, 0o600, 'Saving the token file')
  } catch (error) {
    if (error instanceof RosterDeskError) throw error
    throw new RosterDeskError('storage', `RosterDesk could not write the token file ${path}.`, {
      detail: 'token file write failed',
      cause: error,
    })
  }
}

/** Reads and checks a token file; RosterDeskError('not-signed-in') when it is missing or not a token file. */
export async function readTokenFile(path: string): Promise<TokenFile> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    throw new RosterDeskError('not-signed-in', `No token file at ${path}. Run "login" first.`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  const parsed = tokenFileSchema.safeParse(json)
  if (!parsed.success) {
    throw new RosterDeskError('not-signed-in', `${path} is not a RosterDesk token file. Run "login" again.`)
  }
  return parsed.data
}

/**
 * A SecretStore over a token file, so TokenManager can refresh the tokens of a CLI session and write the renewed
 * ones back. The client secret is held in memory only (it comes from the environment, never from the file).
 * Deleting the access token (a refused refresh) deletes the file.
 */
export class TokenFileSecretStore implements SecretStore {
  readonly persistent = true
  readonly #path: string
  readonly #values = new Map<SecretKey, string>()
  readonly #meta: Pick<TokenFile, 'baseUrl' | 'clientId' | 'redirectUri' | 'tenantId'>

  constructor(path: string, file: TokenFile, clientSecret: string) {
    this.#path = path
    this.#meta = {
      baseUrl: file.baseUrl,
      clientId: file.clientId,
      redirectUri: file.redirectUri,
      tenantId: file.tenantId,
    }
    this.#values.set('clientSecret', clientSecret)
    this.#values.set('accessToken', file.accessToken)
    if (file.refreshToken !== null) this.#values.set('refreshToken', file.refreshToken)
    if (file.expiresAt !== null) this.#values.set('accessTokenExpiresAt', String(Date.parse(file.expiresAt)))
    this.#values.set('tokenContext', JSON.stringify({ baseUrl: file.baseUrl, clientId: file.clientId }))
  }

  async get(key: SecretKey): Promise<string | undefined> {
    return this.#values.get(key)
  }

  async set(key: SecretKey, value: string): Promise<void> {
    this.#values.set(key, value)
    await this.#flush()
  }

  async delete(key: SecretKey): Promise<void> {
    this.#values.delete(key)
    await this.#flush()
  }

  async #flush(): Promise<void> {
    const accessToken = this.#values.get('accessToken')
    if (accessToken === undefined) {
      await rm(this.#path, { force: true })
      return
    }
    const expiresAt = this.#values.get('accessTokenExpiresAt')
    await writeTokenFile(this.#path, {
      ...this.#meta,
      accessToken,
      refreshToken: this.#values.get('refreshToken') ?? null,
      expiresAt: expiryText(expiresAt === undefined ? undefined : Number(expiresAt)),
    })
  }
}

/** A CLI session: the token file's service details and an AccessTokenSource that refreshes and writes back. */
export interface TokenFileSession {
  readonly file: TokenFile
  readonly tokens: AccessTokenSource
}

/** Opens a token file for API calls (the `sync`, `search` and `status` commands). */
export async function openTokenFileSession(options: {
  path: string
  clientSecret: string
  fetch: FetchLike
  clock: Clock
  logger?: Logger
}): Promise<TokenFileSession> {
  const file = await readTokenFile(options.path)
  const secrets = new TokenFileSecretStore(options.path, file, options.clientSecret)
  const logger = options.logger ?? silentLogger
  const tokens = new TokenManager({
    fetch: options.fetch,
    clock: options.clock,
    secrets,
    logger,
    environment: () => ({ baseUrl: file.baseUrl, clientId: file.clientId, redirectUri: file.redirectUri }),
    clientSecret: async () => options.clientSecret,
    onSignedOut: () => logger.warn(`Sign-in: the token file ${options.path} was removed; run "login" again`),
  })
  return { file, tokens }
}
