import { useCallback, useEffect, useState } from 'react'
import type { SettingsPatch, SettingsView } from '../../../shared/domain'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

export interface SettingsController {
  readonly view: SettingsView | undefined
  readonly loadError: string | undefined
  /** Saves a change; rejects with a ClientError whose message main worded for the clerk. */
  update(patch: SettingsPatch): Promise<SettingsView>
  /** Stores the client secret (write-only); rejects like `update`. */
  setClientSecret(secret: string): Promise<SettingsView>
  reload(): void
}

/** The settings as main shows them to the renderer (never a secret, only whether one is stored). */
export function useSettings(): SettingsController {
  const client = useClient()
  const [view, setView] = useState<SettingsView>()
  const [loadError, setLoadError] = useState<string>()

  const reload = useCallback(() => {
    client.call('settings:get').then(
      (next) => {
        setView(next)
        setLoadError(undefined)
      },
      (error: unknown) => setLoadError(errorMessage(error)),
    )
  }, [client])

  useEffect(reload, [reload])

  const update = useCallback(
    async (patch: SettingsPatch) => {
      const next = await client.call('settings:update', patch)
      setView(next)
      return next
    },
    [client],
  )
  const setClientSecret = useCallback(
    async (secret: string) => {
      const next = await client.call('settings:set-client-secret', secret)
      setView(next)
      return next
    },
    [client],
  )
  return { view, loadError, update, setClientSecret, reload }
}
