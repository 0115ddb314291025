import { useEffect, useState } from 'react'
import type { EmployeeRow } from '../../../shared/domain/rows'
import { useClient } from '../api/client-context'

/** A referenced employee: their saved row, `null` when the saved employees lack them, absent while asked. */
export type ReferencedEmployees = ReadonlyMap<string, EmployeeRow | null>

/**
 * The saved rows of the employees `uuids` name (a manager, say), each read once with `employees:get`; a UUID the
 * saved employees lack, or whose read failed, maps to `null` so the caller can show the UUID itself.
 */
export function useReferencedEmployees(uuids: readonly string[]): ReferencedEmployees {
  const client = useClient()
  const [found, setFound] = useState<ReferencedEmployees>(new Map())
  const wanted = uuids.join('\n')

  useEffect(() => {
    let live = true
    const asked = wanted === '' ? [] : wanted.split('\n')
    void Promise.all(
      asked.map((uuid) =>
        client.call('employees:get', uuid).then(
          (detail) => [uuid, detail?.row ?? null] as const,
          () => [uuid, null] as const,
        ),
      ),
    ).then((entries) => {
      if (live) setFound(new Map(entries))
    })
    return () => {
      live = false
    }
  }, [client, wanted])

  return found
}
