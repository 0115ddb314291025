import { describe, expect, it } from 'vitest'
import {
  bindUnboundSecrets,
  boundClientSecrets,
  type BindingProfile,
} from '../../../../../src/main/core/secrets/bound-client-secret'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'

/**
 * Issue 31, point 2: a stored client secret belongs to {service address, client ID} and is read only while the
 * profile points there; one stored before the binding existed is bound to the profile's pair at its first read.
 */

const A = 'https://payroll.example.com'

function profiles(first: BindingProfile['settings'], second?: BindingProfile['settings']) {
  const list: BindingProfile[] = [{ id: 'p1', settings: first }]
  if (second !== undefined) list.push({ id: 'p2', settings: second })
  return { list: () => list }
}

function production(address: string, clientId = 'client-1'): BindingProfile['settings'] {
  return { environment: 'production', baseUrls: { staging: '', production: address }, clientId }
}

describe('a client secret bound to its service and client ID', () => {
  it('is read while the profile points at the pair it was entered for, and at no other', async () => {
    const vault = new MemorySecretStore()
    const world = profiles(production(A))
    const secrets = boundClientSecrets(vault, world)
    await secrets.set('clientSecret', 's3cret')
    expect(await secrets.get('clientSecret')).toBe('s3cret')
    // The address normalised as the app normalises it: a trailing slash is the same service.
    world.list()[0] = { id: 'p1', settings: production(`${A}/`) }
    expect(await secrets.get('clientSecret')).toBe('s3cret')

    world.list()[0] = { id: 'p1', settings: production('https://attacker.example') }
    expect(await secrets.get('clientSecret')).toBeUndefined()
    world.list()[0] = { id: 'p1', settings: production(A, 'client-2') }
    expect(await secrets.get('clientSecret')).toBeUndefined()
    // Kept bound, not discarded: back at its pair it is used again.
    world.list()[0] = { id: 'p1', settings: production(A) }
    expect(await secrets.get('clientSecret')).toBe('s3cret')
  })

  it('follows the environment in force: another environment’s address is another service', async () => {
    const world = profiles(production(A))
    const secrets = boundClientSecrets(new MemorySecretStore(), world)
    await secrets.set('clientSecret', 's3cret')
    world.list()[0] = {
      id: 'p1',
      settings: {
        environment: 'staging',
        baseUrls: { staging: 'https://other.example', production: A },
        clientId: 'client-1',
      },
    }
    expect(await secrets.get('clientSecret')).toBeUndefined()
    world.list()[0] = { id: 'p1', settings: { ...production(A), environment: 'demo' } }
    expect(await secrets.get('clientSecret')).toBeUndefined()
  })

  it('binds each profile’s secret to that profile’s pair', async () => {
    const world = profiles(production(A), production('https://second.example'))
    const secrets = boundClientSecrets(new MemorySecretStore(), world)
    await secrets.set('clientSecret', 'first')
    await secrets.set('profile:p2:clientSecret', 'second')
    expect(await secrets.get('clientSecret')).toBe('first')
    expect(await secrets.get('profile:p2:clientSecret')).toBe('second')
    world.list()[1] = { id: 'p2', settings: production(A) }
    expect(await secrets.get('profile:p2:clientSecret')).toBeUndefined()
  })

  it('binds a secret stored before the binding existed to the profile’s pair at start, then holds it there', async () => {
    const vault = new MemorySecretStore()
    await vault.set('clientSecret', 'legacy')
    const world = profiles(production(A))
    expect(await bindUnboundSecrets(vault, world)).toBe(1)
    expect(JSON.parse((await vault.get('clientSecretBinding')) ?? '')).toEqual({
      baseUrl: A,
      clientId: 'client-1',
    })
    // The window's first request moves the address: the legacy secret stays the first service's.
    world.list()[0] = { id: 'p1', settings: production('https://attacker.example') }
    expect(await boundClientSecrets(vault, world).get('clientSecret')).toBeUndefined()
    expect(await bindUnboundSecrets(vault, world)).toBe(0)
  })

  it('binds a legacy secret at its first read when nothing bound it at start', async () => {
    const vault = new MemorySecretStore()
    await vault.set('clientSecret', 'legacy')
    const world = profiles(production(A))
    const secrets = boundClientSecrets(vault, world)
    expect(await secrets.get('clientSecret')).toBe('legacy')
    world.list()[0] = { id: 'p1', settings: production('https://attacker.example') }
    expect(await secrets.get('clientSecret')).toBeUndefined()
  })

  it('deletes the binding with the secret, and leaves other secrets as they are', async () => {
    const vault = new MemorySecretStore()
    const secrets = boundClientSecrets(vault, profiles(production(A)))
    await secrets.set('clientSecret', 's3cret')
    await secrets.set('accessToken', 'token')
    await secrets.delete('clientSecret')
    expect(await vault.get('clientSecretBinding')).toBeUndefined()
    expect(await secrets.get('accessToken')).toBe('token')
  })
})
