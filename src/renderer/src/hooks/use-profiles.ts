import { useCallback, useEffect, useState } from 'react'
import type { ProfileList } from '../../../shared/domain'
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
  switchTo(id: string): void
  /** Resolves true when the profile was created; its problem is in `error` otherwise. */
  create(name: string): Promise<boolean>
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
      generation:
        previous.list !== undefined && previous.list.activeId !== next.activeId
          ? previous.generation + 1
          : previous.generation,
    }))
  }, [])
  const [error, setError] = useState<string>()
  const [switching, setSwitching] = useState(false)

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
        .then(setList, (failure: unknown) => setError(errorMessage(failure)))
        .finally(() => setSwitching(false))
    },
    [client, setList],
  )

  const create = useCallback(
    async (name: string) => {
      setError(undefined)
      try {
        setList(await client.call('profiles:create', name))
        return true
      } catch (failure) {
        setError(errorMessage(failure))
        return false
      }
    },
    [client, setList],
  )

  return { list, generation, error, switching, switchTo, create }
}
