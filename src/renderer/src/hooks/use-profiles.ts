import { useCallback, useEffect, useState } from 'react'
import type { ProfileList } from '../../../shared/domain/profiles'
import { normalizeProfileName, type Environment } from '../../../shared/settings-rules'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

export interface ProfilesController {
  /** Undefined until main has answered `profiles:list`. */
  readonly list: ProfileList | undefined
  /**
   * Counts switches of the active profile seen by this window (not the first answer, so starting the app mounts
   * once); what shows one profile is keyed by it.
   */
  readonly generation: number
  /** What went wrong with the last profile action, worded for the clerk. */
  readonly error: string | undefined
  /** True while main closes one profile and opens another. */
  readonly switching: boolean
  /**
   * A Staging or Production profile just created: once it is active, its Settings open at the service's fields
   * (the workspace asks once, then calls `arrived`).
   */
  readonly settingsOnArrival: string | undefined
  /** The workspace opened the arriving profile's Settings: later visits to that profile open as usual. */
  arrived(): void
  switchTo(id: string): void
  /** Asks for the list again: each profile's saved employees are counted when it is asked for. */
  refresh(): void
  /**
   * The changes "Manage profiles" makes. Each resolves with main's message, worded for the clerk, when it was
   * refused (a name taken, a profile gone), and with undefined when it was done. `create` then switches to the new
   * profile, whose Settings open at the service's fields unless it is Demo's (`settingsOnArrival`).
   */
  create(name: string, environment: Environment): Promise<string | undefined>
  rename(id: string, name: string): Promise<string | undefined>
  remove(id: string): Promise<string | undefined>
  /** Puts a profile's set-aside employees back (decision 039). */
  restoreSetAside(id: string): Promise<string | undefined>
}

/** The clerk's profiles and the active one, kept current by `profiles:changed`. */
export function useProfiles(): ProfilesController {
  const client = useClient()
  const [{ list, generation }, setState] = useState<{ list?: ProfileList; generation: number }>({
    generation: 0,
  })
  const setList = useCallback((next: ProfileList) => {
    setState((previous) => ({
      list: next,
      // Another profile, or this one's saved employees set aside or restored (decision 039): the workspace
      // reloads everything it shows, as the cache under it was replaced.
      generation:
        previous.list !== undefined &&
        (previous.list.activeId !== next.activeId || setAsideAt(previous.list) !== setAsideAt(next))
          ? previous.generation + 1
          : previous.generation,
    }))
  }, [])
  const [error, setError] = useState<string>()
  const [switching, setSwitching] = useState(false)
  const [settingsOnArrival, setSettingsOnArrival] = useState<string>()
  const arrived = useCallback(() => setSettingsOnArrival(undefined), [])

  useEffect(() => {
    let live = true
    const unsubscribe = client.on('profiles:changed', (next) => live && setList(next))
    client
      .call('profiles:list')
      .then((next) => live && setList(next))
      .catch((failure: unknown) => live && setError(errorMessage(failure)))
    return () => {
      live = false
      unsubscribe()
    }
  }, [client, setList])

  const switchTo = useCallback(
    (id: string) => {
      setError(undefined)
      setSwitching(true)
      client
        .call('profiles:switch', id)
        .then(setList, (failure: unknown) => {
          setError(errorMessage(failure))
          setSettingsOnArrival(undefined)
        })
        .finally(() => setSwitching(false))
    },
    [client, setList],
  )

  const refresh = useCallback(() => {
    client.call('profiles:list').then(setList, (failure: unknown) => setError(errorMessage(failure)))
  }, [client, setList])

  /** Runs one change and takes the list it answers; a refusal is the caller's to show, beside what it concerns. */
  const change = useCallback(
    async (request: () => Promise<ProfileList>): Promise<string | undefined> => {
      try {
        setList(await request())
        return undefined
      } catch (failure) {
        return errorMessage(failure)
      }
    },
    [setList],
  )
  const create = useCallback(
    async (name: string, environment: Environment) => {
      let after: ProfileList | undefined
      const refused = await change(async () => {
        after = await client.call('profiles:create', name, { environment })
        return after
      })
      // Names are unique (ignoring case): the new profile is the one named as the clerk's rule normalizes it.
      const wanted = normalizeProfileName(name).toLowerCase()
      const created = after?.profiles.find((profile) => profile.name.toLowerCase() === wanted)
      if (refused !== undefined || created === undefined) return refused
      if (environment !== 'demo') setSettingsOnArrival(created.id)
      switchTo(created.id)
      return undefined
    },
    [client, change, switchTo],
  )
  const rename = useCallback(
    (id: string, name: string) => change(() => client.call('profiles:rename', id, name)),
    [client, change],
  )
  const remove = useCallback(
    (id: string) => change(() => client.call('profiles:delete', id)),
    [client, change],
  )
  const restoreSetAside = useCallback(
    (id: string) => change(() => client.call('profiles:restore-set-aside', id)),
    [client, change],
  )

  return {
    list,
    generation,
    error,
    switching,
    settingsOnArrival,
    arrived,
    switchTo,
    refresh,
    create,
    rename,
    remove,
    restoreSetAside,
  }
}

/** When the active profile's employees were set aside, if they are (what a set-aside or restore changes). */
function setAsideAt(list: ProfileList): string | undefined {
  return list.profiles.find((profile) => profile.id === list.activeId)?.setAside?.setAsideAt
}
