import { useEffect, useState } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import type { SavedView } from '../../../shared/view-schema'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

/** The saved views a roster can take as its template, and the columns they may name. */
export interface RosterTemplates {
  readonly views: readonly SavedView[]
  /** The columns the saved data has: a view's others (fields the service stopped sending) are left out. */
  readonly columns: readonly ColumnInfo[]
}

/**
 * The roster dialog's templates: the profile's saved views (`views:list`) and the saved data's columns
 * (`employees:columns`), read again when a sync replaces the data. Undefined until both answer; a failure goes to
 * `onError`, worded for the clerk.
 */
export function useRosterTemplates(
  dataVersion: string,
  onError: (message: string) => void,
): RosterTemplates | undefined {
  const client = useClient()
  const [templates, setTemplates] = useState<RosterTemplates>()
  useEffect(() => {
    let current = true
    Promise.all([client.call('views:list'), client.call('employees:columns')]).then(
      ([views, columns]) => current && setTemplates({ views, columns }),
      (error: unknown) => current && onError(errorMessage(error)),
    )
    return () => {
      current = false
    }
  }, [client, dataVersion, onError])
  return templates
}
