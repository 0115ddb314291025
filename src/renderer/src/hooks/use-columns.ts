import { useEffect, useState } from 'react'
import type { ColumnInfo } from '../../../shared/domain/rows'
import { useClient } from '../api/client-context'

/** The four columns the spec names, used until main has said which columns the cached data has. */
export const FALLBACK_COLUMNS: readonly ColumnInfo[] = [
  { key: 'lastName', label: 'Last name', kind: 'text', known: true },
  { key: 'firstName', label: 'First name', kind: 'text', known: true },
  { key: 'employeeStatus', label: 'Status', kind: 'text', known: true },
  { key: 'UUID', label: 'UUID', kind: 'text', known: true },
]

/** Every column of the cached employees (`employees:columns`): the known four plus fields found in the data. */
export function useColumns(dataVersion: string): readonly ColumnInfo[] {
  const client = useClient()
  const [columns, setColumns] = useState<readonly ColumnInfo[]>(FALLBACK_COLUMNS)
  useEffect(() => {
    let live = true
    client.call('employees:columns').then(
      (next) => live && next.length > 0 && setColumns(next),
      // The fallback columns still let the clerk browse; the table reports query errors itself.
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [client, dataVersion])
  return columns
}

/** Whether `columns` (from useColumns) are the cached data's own rather than the fallback used until main answers. */
export function columnsRead(columns: readonly ColumnInfo[]): boolean {
  return columns !== FALLBACK_COLUMNS
}
