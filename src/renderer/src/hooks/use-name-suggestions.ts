import { useEffect, useState } from 'react'
import type { NameSuggestion } from '../../../shared/domain/query'
import { NEAR_MISS_FEW_MATCHES } from '../../../shared/near-miss'
import { useClient } from '../api/client-context'

const NONE: readonly NameSuggestion[] = []

/**
 * "Did you mean …" for the search the table last ran (`employees:suggest`): asked only when that search found
 * very little (NEAR_MISS_FEW_MATCHES or fewer employees, `total`; undefined while the table is still answering),
 * and again when a sync replaced the data (`dataVersion`). An answer for an older search is dropped; a failure
 * leaves no suggestions (the table reports a broken cache itself).
 */
export function useNameSuggestions(
  text: string,
  column: string | undefined,
  total: number | undefined,
  dataVersion: string,
): readonly NameSuggestion[] {
  const client = useClient()
  const [answer, setAnswer] = useState<{ key: string; suggestions: readonly NameSuggestion[] }>()
  const trimmed = text.trim()
  const wanted = trimmed !== '' && total !== undefined && total <= NEAR_MISS_FEW_MATCHES
  const key = `${dataVersion}\u0000${column ?? ''}\u0000${trimmed}`
  useEffect(() => {
    if (!wanted) return
    let live = true
    client
      .call('employees:suggest', column === undefined ? { text: trimmed } : { text: trimmed, column })
      .then(
        (suggestions) => live && setAnswer({ key, suggestions }),
        () => live && setAnswer({ key, suggestions: NONE }),
      )
    return () => {
      live = false
    }
  }, [client, wanted, key, trimmed, column])
  return wanted && answer?.key === key ? answer.suggestions : NONE
}
