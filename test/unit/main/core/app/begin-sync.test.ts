import { describe, expect, it } from 'vitest'
import type { AuthState } from '../../../../../src/shared/domain/auth'
import { beginAppSync } from '../../../../../src/main/core/app/begin-sync'
import { syncStartOptions } from '../../../../../src/main/core/session/session-source'
import { defaultSettings } from '../../../../../src/main/core/settings/settings-defaults'
import type { SyncStartOptions } from '../../../../../src/main/core/sync/sync-service'
import { SYNC_LIMIT_SETTING_DEFAULTS } from '../../../../../src/shared/settings-rules'
import type { Settings } from '../../../../../src/shared/settings-schema'

/** What `beginAppSync` asks the sync service for, under these settings. */
async function optionsFor(settings: Settings): Promise<SyncStartOptions> {
  const asked: SyncStartOptions[] = []
  const state: AuthState = {
    status: 'signed-in',
    environment: 'staging',
    tenantId: 'acme',
    secretStorage: 'os',
  }
  await beginAppSync({
    auth: { getState: () => state },
    options: () =>
      syncStartOptions({
        settings,
        service: { environment: 'staging', baseUrl: 'https://staging.payroll.example', tenantId: 'acme' },
      }),
    sync: {
      begin: async (options) => {
        asked.push(options)
        return { runId: 1, finished: new Promise(() => undefined) }
      },
    },
  })
  expect(asked).toHaveLength(1)
  return asked[0]!
}

describe('beginAppSync', () => {
  it('passes the sync limits saved in Settings to the run', async () => {
    const settings: Settings = {
      ...defaultSettings(),
      environment: 'staging',
      requestTimeoutSeconds: 5,
      syncDeadlineMinutes: 15,
      maxEmployees: 20_000,
    }
    expect(await optionsFor(settings)).toMatchObject({
      baseUrl: 'https://staging.payroll.example',
      tenantId: 'acme',
      limits: { requestTimeoutSeconds: 5, syncDeadlineMinutes: 15, maxEmployees: 20_000 },
    })
  })

  it('passes the defaults when the clerk never changed them', async () => {
    expect((await optionsFor(defaultSettings())).limits).toEqual(SYNC_LIMIT_SETTING_DEFAULTS)
  })
})
