import type { IdentityChoice } from '../../../shared/source-identity'
import { useCallback, useEffect, useState } from 'react'
import type { SettingsView } from '../../../shared/domain/settings'
import type { SettingsPatch } from '../../../shared/settings-schema'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

export interface SettingsController {
  readonly view: SettingsView | undefined
  readonly loadError: string | undefined
  /** Saves a change; rejects with a ClientError whose message main worded for the clerk. */
  /** `identityChange` says how a change of the profile's source is made (decision 039); main refuses it unsaid. */
  update(patch: SettingsPatch, identityChange?: IdentityChoice): Promise<SettingsView>
  /** Stores the client secret (write-only); rejects like `update`. */
  setClientSecret(secret: string): Promise<SettingsView>
  /**
   * Settings → Network's "Choose file…": main asks for a PEM file with the system's open dialog, checks it and
   * saves its path (unchanged when the dialog is cancelled); rejects like `update` when the file will not do.
   */
  chooseCertificates(): Promise<SettingsView>
  /** "Remove": the profile trusts no extra certificates (its own channel: `update` cannot name the file). */
  removeCertificates(): Promise<SettingsView>
  /** Deletes the sign-in remembered for one proxy (host:port, as `rememberedProxies` lists it). */
  forgetProxyPassword(proxy: string): Promise<SettingsView>
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
    async (patch: SettingsPatch, identityChange?: IdentityChoice) => {
      // Sent only when said: the contract's optional last argument is absent, not undefined.
      const next =
        identityChange === undefined
          ? await client.call('settings:update', patch)
          : await client.call('settings:update', patch, { identityChange })
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
  const chooseCertificates = useCallback(async () => {
    const next = await client.call('network:choose-certificates')
    setView(next)
    return next
  }, [client])
  const removeCertificates = useCallback(async () => {
    const next = await client.call('network:remove-certificates')
    setView(next)
    return next
  }, [client])
  const forgetProxyPassword = useCallback(
    async (proxy: string) => {
      const next = await client.call('network:forget-proxy-password', proxy)
      setView(next)
      return next
    },
    [client],
  )
  return {
    view,
    loadError,
    update,
    setClientSecret,
    chooseCertificates,
    removeCertificates,
    forgetProxyPassword,
    reload,
  }
}
