import { describe, expect, it } from 'vitest'
import type { RosterDeskApi } from '../../src/shared/ipc-contract'
import { ClientError, createClient, errorMessage } from '../../src/renderer/src/api/client'

function apiAnswering(invoke: RosterDeskApi['invoke']): RosterDeskApi {
  return { invoke, on: () => () => undefined }
}

describe('createClient', () => {
  it('unwraps a successful result into its value', async () => {
    const client = createClient(
      apiAnswering(async () => ({ ok: true, value: { running: false, employeeCount: 3 } }) as never),
    )
    await expect(client.call('sync:get-status')).resolves.toEqual({ running: false, employeeCount: 3 })
  })

  it('throws a ClientError carrying the code and the clerk-readable message', async () => {
    const client = createClient(
      apiAnswering(async () => ({
        ok: false,
        error: { code: 'network', message: 'No connection to the service.' },
      })),
    )
    const error = await client.call('sync:start').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ClientError)
    expect(error).toMatchObject({ code: 'network', message: 'No connection to the service.' })
    expect(errorMessage(error)).toBe('No connection to the service.')
  })

  it('reports a broken bridge as an internal error with advice, not the raw exception', async () => {
    const client = createClient(
      apiAnswering(async () => {
        throw new Error('ipc channel closed')
      }),
    )
    const error = await client.call('app:get-info').catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'internal' })
    expect(errorMessage(error)).toMatch(/start it again/)
    expect(errorMessage(error)).not.toMatch(/ipc channel closed/)
  })
})
