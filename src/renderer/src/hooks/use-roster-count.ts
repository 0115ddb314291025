import { useEffect, useState } from 'react'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

/** How many employees the roster will hold, or that it is still being counted. */
export type RosterCount = { readonly state: 'loading' } | { readonly state: 'ready'; readonly total: number }

/** A count answered for one question (pay cycle, statuses, data version); another question's count is stale. */
interface CountAnswer {
  readonly key: string
  readonly total: number
}

/**
 * Counts the employees of a pay cycle (and of some statuses, when given) in the saved data with `employees:query`
 * (`limit: 0`), again whenever the question or the data changes; until the answer to the current question arrives
 * the count is loading. A failure goes to `onError`, worded for the clerk.
 */
export function useRosterCount(
  payCycleId: string | undefined,
  statuses: readonly string[] | undefined,
  dataVersion: string,
  onError: (message: string) => void,
): RosterCount {
  const client = useClient()
  const [answer, setAnswer] = useState<CountAnswer>()
  const statusKey = statuses?.join('\u0000') ?? ''
  const countKey = `${payCycleId ?? ''}\u0001${statusKey}\u0001${dataVersion}`
  const count: RosterCount =
    answer?.key === countKey ? { state: 'ready', total: answer.total } : { state: 'loading' }
  useEffect(() => {
    if (payCycleId === undefined) return
    let current = true
    const query = {
      payCycleIds: [payCycleId],
      limit: 0,
      ...(statusKey === '' ? {} : { statuses: statusKey.split('\u0000') }),
    }
    client.call('employees:query', query).then(
      (result) => current && setAnswer({ key: countKey, total: result.total }),
      (error: unknown) => current && onError(errorMessage(error)),
    )
    return () => {
      current = false
    }
  }, [client, payCycleId, statusKey, countKey, onError])
  return count
}
