import type { ServiceLookupRequest, ServiceLookupResult } from '../../../shared/domain/lookup'
import type { AuthService } from '../auth/auth-service'
import type { ChangeHistory } from '../changes/change-history'
import { RosterDeskError } from '../errors'
import type { InvokeHandlers } from '../ipc/dispatch'
import type { QueryEngine } from '../query/query-engine'

export interface EmployeesHandlerDeps {
  readonly auth: AuthService
  readonly queries: QueryEngine
  /** The change report's history: the last complete syncs and whom each added, removed or changed. */
  readonly changes: ChangeHistory
  /** Looks employees up on the payroll service itself (core/service-lookup/service-lookup.ts). */
  readonly lookupService: (request: ServiceLookupRequest) => Promise<ServiceLookupResult>
}

export type EmployeesChannel =
  | 'employees:query'
  | 'employees:get'
  | 'employees:columns'
  | 'employees:changes'
  | 'employees:lookup-service'
  | 'employees:suggest'

/**
 * The `employees:*` channels: the saved employees (pages, one employee, the columns, the latest sync's changes)
 * and, for a signed-in clerk, a lookup on the payroll service.
 */
export function createEmployeesHandlers(deps: EmployeesHandlerDeps): Pick<InvokeHandlers, EmployeesChannel> {
  return {
    'employees:query': async (query) => {
      // A first sort or "Search in" on a column is built off this thread; other replies go out meanwhile.
      return deps.queries.answer(query)
    },
    'employees:get': async (uuid) => {
      // After a sync, the new snapshot's index is opened off this thread by whichever call comes first.
      await deps.queries.open()
      return deps.queries.getEmployee(uuid)
    },
    'employees:columns': async () => {
      await deps.queries.open()
      return deps.queries.listColumns()
    },
    'employees:suggest': async (request) => {
      await deps.queries.open()
      return deps.queries.suggest(request.text, request.column)
    },
    'employees:changes': async (kind, offset, limit) => deps.changes.latestPage(kind, offset, limit),
    'employees:lookup-service': async (request) => {
      if (deps.auth.getState().status !== 'signed-in') {
        throw new RosterDeskError(
          'not-signed-in',
          'Sign in to look employees up on the payroll service. Your saved employees stay searchable.',
        )
      }
      return deps.lookupService(request)
    },
  }
}
