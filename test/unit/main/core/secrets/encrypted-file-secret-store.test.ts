import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  EncryptedFileSecretStore,
  openSecretStore,
  type SafeStorageLike,
} from '../../../../../src/main/core/secrets/encrypted-file-secret-store'
import { deleteProfileSecrets, profileSecrets } from '../../../../../src/main/core/secrets/secret-store'
import { CaptureLogger } from '../../../../helpers/capture-logger'

/** Stands in for Electron's safeStorage: a reversible "encryption" with a key version that can be rotated. */
class FakeSafeStorage implements SafeStorageLike {
  available = true
  backend = 'gnome_libsecret'
  keyVersion = 'v2'
  failDecrypt = false
  encryptions = 0

  async isAsyncEncryptionAvailable(): Promise<boolean> {
    return this.available
  }

  async encryptStringAsync(plainText: string): Promise<Buffer> {
    this.encryptions++
    return Buffer.from(`${this.keyVersion}:${Buffer.from(plainText).reverse().toString('hex')}`)
  }

  async decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    if (this.failDecrypt)
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
    const [version, hex] = encrypted.toString().split(':')
    return {
      result: Buffer.from(hex ?? '', 'hex')
        .reverse()
        .toString(),
      shouldReEncrypt: version !== this.keyVersion,
    }
  }

  getSelectedStorageBackend(): string {
    return this.backend
  }
}

let dir: string
let filePath: string
let logger: CaptureLogger

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rosterdesk-secrets-'))
  filePath = join(dir, 'userData', 'secrets.json')
  logger = new CaptureLogger()
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('openSecretStore', () => {
  it("keeps secrets in memory only on Linux's basic_text backend, and writes nothing", async () => {
    const safeStorage = new FakeSafeStorage()
    safeStorage.backend = 'basic_text'
    const store = await openSecretStore({ safeStorage, filePath, platform: 'linux', logger })
    expect(store.persistent).toBe(false)
    await store.set('clientSecret', 'top-secret')
    expect(await store.get('clientSecret')).toBe('top-secret')
    await expect(stat(filePath)).rejects.toThrow(/ENOENT/)
    expect(logger.lines.join('\n')).toMatch(/^warn Secrets: .*backend basic_text/)
    expect(logger.leaking(['top-secret'])).toEqual([])
  })

  it('keeps secrets in memory when the OS offers no encryption, or before ready on Linux', async () => {
    const unavailable = new FakeSafeStorage()
    unavailable.available = false
    expect(
      (await openSecretStore({ safeStorage: unavailable, filePath, platform: 'win32' })).persistent,
    ).toBe(false)
    const early = new FakeSafeStorage()
    early.backend = 'unknown'
    expect((await openSecretStore({ safeStorage: early, filePath, platform: 'linux' })).persistent).toBe(
      false,
    )
  })

  it('persists with real encryption (the Linux backend check only applies on Linux)', async () => {
    const safeStorage = new FakeSafeStorage()
    safeStorage.backend = 'basic_text'
    expect((await openSecretStore({ safeStorage, filePath, platform: 'darwin' })).persistent).toBe(true)
    safeStorage.backend = 'kwallet6'
    expect((await openSecretStore({ safeStorage, filePath, platform: 'linux' })).persistent).toBe(true)
  })
})

describe('EncryptedFileSecretStore', () => {
  it('stores base64 ciphertexts in a 0600 JSON file that a later session can read', async () => {
    const safeStorage = new FakeSafeStorage()
    const store = new EncryptedFileSecretStore({ safeStorage, filePath, platform: 'linux' })
    await store.set('clientSecret', 'client-secret-value')
    await store.set('accessToken', 'access-token-value')
    const text = await readFile(filePath, 'utf8')
    expect(text).not.toContain('client-secret-value')
    expect(text).not.toContain('access-token-value')
    const json = JSON.parse(text) as { version: number; entries: Record<string, string> }
    expect(json.version).toBe(1)
    expect(Buffer.from(json.entries.clientSecret!, 'base64').toString()).toMatch(/^v2:/)
    expect((await stat(filePath)).mode & 0o777).toBe(0o600)
    expect(await readdir(join(dir, 'userData'))).toEqual(['secrets.json'])

    const later = new EncryptedFileSecretStore({ safeStorage, filePath, platform: 'linux' })
    expect(await later.get('clientSecret')).toBe('client-secret-value')
    expect(await later.get('refreshToken')).toBeUndefined()
  })

  it('re-encrypts a value when the OS says the key was rotated', async () => {
    const safeStorage = new FakeSafeStorage()
    safeStorage.keyVersion = 'v1'
    await new EncryptedFileSecretStore({ safeStorage, filePath, platform: 'linux' }).set(
      'refreshToken',
      'r-1',
    )
    safeStorage.keyVersion = 'v2'
    const store = new EncryptedFileSecretStore({ safeStorage, filePath, platform: 'linux' })
    expect(await store.get('refreshToken')).toBe('r-1')
    const json = JSON.parse(await readFile(filePath, 'utf8')) as { entries: Record<string, string> }
    expect(Buffer.from(json.entries.refreshToken!, 'base64').toString()).toMatch(/^v2:/)
  })

  it('forgets a value it can no longer decrypt, logging which key and why but not the value', async () => {
    const safeStorage = new FakeSafeStorage()
    await new EncryptedFileSecretStore({ safeStorage, filePath, platform: 'linux' }).set(
      'accessToken',
      'a-token-1',
    )
    safeStorage.failDecrypt = true
    const store = new EncryptedFileSecretStore({ safeStorage, filePath, platform: 'linux', logger })
    expect(await store.get('accessToken')).toBeUndefined()
    expect(logger.lines).toHaveLength(1)
    const [line = ''] = logger.lines
    expect(line.split('\n').slice(0, 2)).toEqual([
      'warn Secrets: could not decrypt the stored accessToken; it was discarded',
      '  Error: Error while decrypting the ciphertext provided to safeStorage.decryptString.',
    ])
    expect(logger.leaking(['a-token-1'])).toEqual([])
    expect(JSON.parse(await readFile(filePath, 'utf8'))).toEqual({ version: 1, entries: {} })
  })

  it('starts empty from a damaged file', async () => {
    const flat = join(dir, 'secrets.json')
    await writeFile(flat, '{"version":1,"entries":')
    const store = new EncryptedFileSecretStore({
      safeStorage: new FakeSafeStorage(),
      filePath: flat,
      platform: 'win32',
      logger,
    })
    expect(await store.get('clientSecret')).toBeUndefined()
    expect(logger.lines).toEqual([
      'warn Secrets: the secret file is damaged; starting with no stored secrets',
    ])
  })

  it('deletes, and keeps every one of many concurrent writes', async () => {
    const safeStorage = new FakeSafeStorage()
    const store = new EncryptedFileSecretStore({ safeStorage, filePath, platform: 'darwin' })
    await Promise.all([
      store.set('clientSecret', 's'),
      store.set('accessToken', 'a'),
      store.set('refreshToken', 'r'),
      store.set('accessTokenExpiresAt', '1'),
    ])
    await store.delete('accessToken')
    const later = new EncryptedFileSecretStore({ safeStorage, filePath, platform: 'darwin' })
    expect([
      await later.get('clientSecret'),
      await later.get('accessToken'),
      await later.get('refreshToken'),
      await later.get('accessTokenExpiresAt'),
    ]).toEqual(['s', undefined, 'r', '1'])
  })
})

describe('profiles in one secrets file', () => {
  it('keeps each profile’s secrets apart, the first under the bare names, and drops names it does not know', async () => {
    const safeStorage = new FakeSafeStorage()
    const store = new EncryptedFileSecretStore({ safeStorage, filePath, platform: 'linux', logger })
    const first = profileSecrets(store, 'p1', 'p1')
    const acme = profileSecrets(store, 'p2', 'p1')
    await first.set('clientSecret', 'first-secret')
    await acme.set('clientSecret', 'acme-secret')
    await acme.set('accessToken', 'acme-token')
    const file = JSON.parse(await readFile(filePath, 'utf8')) as { entries: Record<string, string> }
    expect(Object.keys(file.entries).sort()).toEqual([
      'clientSecret',
      'profile:p2:accessToken',
      'profile:p2:clientSecret',
    ])
    file.entries['profile:../x:clientSecret'] = file.entries['clientSecret']!
    file.entries['somethingElse'] = file.entries['clientSecret']!
    await writeFile(filePath, JSON.stringify(file))

    const later = new EncryptedFileSecretStore({ safeStorage, filePath, platform: 'linux', logger })
    expect(await profileSecrets(later, 'p1', 'p1').get('clientSecret')).toBe('first-secret')
    expect(await profileSecrets(later, 'p2', 'p1').get('clientSecret')).toBe('acme-secret')
    expect(await profileSecrets(later, 'p1', 'p1').get('accessToken')).toBeUndefined()
    await deleteProfileSecrets(later, 'p2', 'p1')
    expect(await profileSecrets(later, 'p2', 'p1').get('accessToken')).toBeUndefined()
    const after = JSON.parse(await readFile(filePath, 'utf8')) as { entries: Record<string, string> }
    expect(Object.keys(after.entries)).toEqual(['clientSecret'])
  })
})
