import type { FacetCount } from '../../../shared/domain/query'
import { formatCount } from '../format/format-value'

interface FacetGroupProps {
  readonly legend: string
  readonly facets: readonly FacetCount[]
  readonly selected: readonly string[]
  readonly onToggle: (value: string) => void
  /** The counts are the previous answer's and the next is slow: each shows "…" rather than an old number. */
  readonly updating: boolean
}

/** One filter: a checkbox per value with how many employees have it. Chosen values stay listed even at zero. */
export function FacetGroup({ legend, facets, selected, onToggle, updating }: FacetGroupProps) {
  const listed = new Set(facets.map((facet) => facet.value))
  const values = [
    ...facets,
    ...selected.filter((value) => !listed.has(value)).map((value) => ({ value, count: 0 })),
  ]
  return (
    <fieldset className="facet-group">
      <legend>{legend}</legend>
      {values.length === 0 ? <p className="muted small">None in the saved employees</p> : null}
      {values.map((facet) => (
        <label key={facet.value} className="facet">
          <input
            type="checkbox"
            checked={selected.includes(facet.value)}
            onChange={() => onToggle(facet.value)}
          />
          <span className="facet-value" title={facet.value}>
            {facet.value === '' ? '(blank)' : facet.value}
          </span>{' '}
          {/* The checkbox's name is its label's text, "Active 1,234 employees": the visible words first (WCAG
              2.5.3), the unit for a screen reader. */}
          {updating ? (
            <span className="facet-count">
              …<span className="visually-hidden"> count updating</span>
            </span>
          ) : (
            <>
              <span className="facet-count">{formatCount(facet.count)}</span>{' '}
              <span className="visually-hidden">{facet.count === 1 ? 'employee' : 'employees'}</span>
            </>
          )}
        </label>
      ))}
    </fieldset>
  )
}
