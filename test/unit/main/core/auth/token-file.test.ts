import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FetchLike } from '../../../../../src/main/core/api/fetch-like'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import {
  openTokenFileSession,
  readTokenFile,
  tokenFileSchema,
  writeTokenFile,
  type TokenFile,
} from '../../../../../src/main/core/auth/token-file'
import { FakeClock } from '../../../../helpers/fake-clock'

const FILE: TokenFile = {
  baseUrl: 'http://127.0.0.1:4100',
  clientId: 'rosterdesk-demo',
  redirectUri: 'http://127.0.0.1:8765/callback',
  tenantId: 'tenant-demo',
  accessToken: 'access-0',
  refreshToken: 'refresh-0',
  expiresAt: '2026-11-01T10:00:00.000Z',
}

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rosterdesk-token-file-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/**
 * A token file whose access token the service refused, refreshed against `answer`: the file, its text before the
 * refresh, and the error.
 */
async function refusedRefresh(answer: Response): Promise<{ path: string; written: string; error: unknown }> {
  const path = join(dir, 'tokens.json')
  await writeTokenFile(path, { ...FILE, expiresAt: null })
  const written = await readFile(path, 'utf8')
  const fetchLike: FetchLike = async () => answer
  const session = await openTokenFileSession({
    path,
    clientSecret: 'cs',
    fetch: fetchLike,
    clock: new FakeClock(),
  })
  const error = await session.tokens.handleUnauthorized('access-0').catch((caught: unknown) => caught)
  return { path, written, error }
}

describe('token file', () => {
  it('is written atomically with mode 0600 and read back', async () => {
    const path = join(dir, 'nested', 'tokens.json')
    await writeTokenFile(path, FILE)
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(FILE)
    expect(await readTokenFile(path)).toEqual(FILE)
    expect(tokenFileSchema.parse({ ...FILE, refreshToken: null, expiresAt: null })).toBeTruthy()
  })

  it('says "login first" for a missing or foreign file', async () => {
    await expect(readTokenFile(join(dir, 'none.json'))).rejects.toMatchObject({ code: 'not-signed-in' })
    const other = join(dir, 'other.json')
    await writeFile(other, '{"hello":1}')
    await expect(readTokenFile(other)).rejects.toThrow(/is not a RosterDesk token file/)
  })

  it('gives CLI commands an AccessTokenSource that refreshes and writes the new tokens back', async () => {
    const path = join(dir, 'tokens.json')
    await writeTokenFile(path, FILE)
    const clock = new FakeClock(Date.parse(FILE.expiresAt!) - 10_000)
    const bodies: unknown[] = []
    const fetchLike: FetchLike = async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)))
      return Response.json({ access_token: 'access-1', expires_in: 600 })
    }
    const session = await openTokenFileSession({ path, clientSecret: 'cs', fetch: fetchLike, clock })
    expect(session.file.tenantId).toBe('tenant-demo')
    expect(await session.tokens.getAccessToken()).toBe('access-1')
    expect(bodies).toEqual([
      {
        clientId: 'rosterdesk-demo',
        clientSecret: 'cs',
        redirectUri: 'http://127.0.0.1:8765/callback',
        grantType: 'authorization_code',
        refreshToken: 'refresh-0',
      },
    ])
    const written = await readTokenFile(path)
    expect(written).toEqual({
      ...FILE,
      accessToken: 'access-1',
      refreshToken: 'refresh-0',
      expiresAt: new Date(clock.now() + 600_000).toISOString(),
    })
    expect(await readFile(path, 'utf8')).not.toContain('"cs"')
  })

  it('deletes the file when the service refuses the refresh', async () => {
    const { path, error } = await refusedRefresh(Response.json({ error: 'invalid_grant' }, { status: 400 }))
    expect(error).toBeInstanceOf(RosterDeskError)
    expect(error).toMatchObject({ code: 'not-signed-in' })
    await expect(stat(path)).rejects.toThrow(/ENOENT/)
  })

  it('keeps the file, and says which setting to check, when the service refuses the client (invalid_client)', async () => {
    // A wrong client secret says nothing about the refresh token, which is still good (RFC 6749 §5.2).
    const { path, written, error } = await refusedRefresh(
      Response.json(
        { error: 'invalid_client', error_description: 'Client authentication failed' },
        { status: 401 },
      ),
    )
    expect(error).toBeInstanceOf(RosterDeskError)
    expect(error).toMatchObject({
      code: 'auth',
      message: expect.stringMatching(/did not accept the client ID or client secret/),
    })
    expect(await readFile(path, 'utf8')).toBe(written)
  })

  it('writes no token file with a token or tenant a request cannot carry, and refuses one that holds them', async () => {
    const path = join(dir, 'tokens.json')
    for (const bad of [
      { accessToken: 'access\r\n0' },
      { refreshToken: 'refresh-é' },
      { tenantId: 'tenant demo' },
    ]) {
      await expect(writeTokenFile(path, { ...FILE, ...bad }), JSON.stringify(bad)).rejects.toThrow()
      await expect(stat(path)).rejects.toThrow(/ENOENT/)
      // As an earlier version could have written it.
      await writeFile(path, JSON.stringify({ ...FILE, ...bad }))
      await expect(readTokenFile(path)).rejects.toMatchObject({
        code: 'not-signed-in',
        message: `${path} is not a RosterDesk token file. Run "login" again.`,
      })
      await rm(path)
    }
  })

  it('renews into a file, a lifetime of 9223372036854775807 s written as a year', async () => {
    const path = join(dir, 'tokens.json')
    await writeTokenFile(path, { ...FILE, expiresAt: null })
    const clock = new FakeClock()
    const fetchLike: FetchLike = async () =>
      new Response('{"access_token":"access-1","expires_in":9223372036854775807}', {
        headers: { 'content-type': 'application/json' },
      })
    const session = await openTokenFileSession({ path, clientSecret: 'cs', fetch: fetchLike, clock })
    expect(await session.tokens.handleUnauthorized('access-0')).toBe('access-1')
    const file = await readTokenFile(path)
    expect(file).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-0' })
    expect(Date.parse(file.expiresAt ?? '')).toBe(clock.now() + 365 * 24 * 3600 * 1000)
  })

  it('keeps the file as it was when the refresh answer holds a token a request cannot carry', async () => {
    const { path, written, error } = await refusedRefresh(
      Response.json({ access_token: 'access\n1', refresh_token: 'refresh-1' }),
    )
    expect(error).toMatchObject({ code: 'service', message: expect.stringMatching(/holds an access token/) })
    expect(await readFile(path, 'utf8')).toBe(written)
  })
})
