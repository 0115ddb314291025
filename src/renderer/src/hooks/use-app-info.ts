import { useEffect, useState } from 'react'
import type { AppInfo } from '../../../shared/domain/app-info'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

/** The app's name, version and environment as main reports them (`app:get-info`). */
export function useAppInfo(): { info: AppInfo | undefined; error: string | undefined } {
  const client = useClient()
  const [result, setResult] = useState<{ info?: AppInfo; error?: string }>({})
  useEffect(() => {
    let live = true
    client
      .call('app:get-info')
      .then((info) => live && setResult({ info }))
      .catch((error: unknown) => live && setResult({ error: errorMessage(error) }))
    return () => {
      live = false
    }
  }, [client])
  return { info: result.info, error: result.error }
}
