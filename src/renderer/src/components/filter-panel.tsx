import type { QueryResult } from '../../../shared/domain/query'
import { hasFilters, type EmployeeFilters } from '../data/employee-filters'
import { FacetGroup } from './facet-group'

interface FilterPanelProps {
  readonly facets: QueryResult['facets']
  /** The counts are the previous answer's and the next is slow to come: they show "…" and the panel is busy. */
  readonly updating: boolean
  readonly filters: EmployeeFilters
  readonly onToggleStatus: (value: string) => void
  readonly onTogglePayCycle: (value: string) => void
  readonly onClearAll: () => void
}

/** Status and pay-cycle filters with counts from the current result, and one button to clear everything. */
export function FilterPanel({
  facets,
  updating,
  filters,
  onToggleStatus,
  onTogglePayCycle,
  onClearAll,
}: FilterPanelProps) {
  return (
    <aside className="filter-panel" aria-label="Filters" aria-busy={updating}>
      <div className="filter-panel-head">
        <h2>Filters</h2>
        {/* Clears the sort too: "Clear all" is the way back to the list as it first came. */}
        <button
          type="button"
          className="link"
          onClick={onClearAll}
          disabled={!hasFilters(filters) && filters.sort === undefined}
        >
          Clear all
        </button>
      </div>
      <FacetGroup
        legend="Status"
        facets={facets?.status ?? []}
        selected={filters.statuses}
        onToggle={onToggleStatus}
        updating={updating}
      />
      <FacetGroup
        legend="Pay cycle"
        facets={facets?.payCycle ?? []}
        selected={filters.payCycleIds}
        onToggle={onTogglePayCycle}
        updating={updating}
      />
    </aside>
  )
}
