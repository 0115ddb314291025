import type { SandboxBehaviours } from './behaviours'
import type { RegisteredClient } from './clients'
import type { Dataset } from './dataset'
import type { GrantStore } from './grants'
import type { PageBodyCache } from './page-cache'
import type { SelectionCache } from './selection'

export interface SandboxStats {
  /** Every HTTP request, whatever the path or outcome. */
  requests: number
  /** Requests to /employees/list, whatever the outcome. */
  listRequests: number
  /** Requests to /employees/list by their `page` parameter as sent ("1" when absent), whatever the outcome. */
  listPages: Record<string, number>
  /** Requests to /employees/list by their `limit` parameter as sent ("default" when absent), whatever the outcome. */
  listLimits: Record<string, number>
  /** POSTs to the code exchange endpoint, whatever the outcome. */
  codeExchanges: number
  /** POSTs to the refresh endpoint, whatever the outcome. */
  refreshes: number
  /** 429s, HTML 5xx and truncated bodies served on purpose. */
  faultsInjected: number
}

/** State shared by the request handlers of one sandbox instance. */
export interface SandboxContext {
  readonly client: RegisteredClient
  readonly tenantId: string
  readonly grants: GrantStore
  readonly dataset: Dataset
  readonly selections: SelectionCache
  readonly pages: PageBodyCache
  readonly stats: SandboxStats
  /** Separate seeded streams, so turning churn on does not change the fault sequence and vice versa. */
  readonly faultRandom: () => number
  readonly churnRandom: () => number
  readonly mutateRandom: () => number
  behaviours: SandboxBehaviours
  /** List requests that will still churn the dataset. */
  churnRemaining: number
  /** List requests that will still change employees' fields. */
  mutateRemaining: number
  /** Requests for the stalling page that will still stall. */
  stallRemaining: number
}
