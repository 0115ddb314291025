import { useEffect, useState } from 'react'
import type { PreparingWork } from '../../../shared/domain/query'
import { useClient } from '../api/client-context'

/**
 * What the core is preparing off the thread that answers (a first sort or "Search in" on a column, the saved
 * employees' index), kept current by `query:preparing`; empty when nothing is.
 */
export function usePreparing(): readonly PreparingWork[] {
  const client = useClient()
  const [preparing, setPreparing] = useState<readonly PreparingWork[]>([])
  useEffect(() => client.on('query:preparing', setPreparing), [client])
  return preparing
}
