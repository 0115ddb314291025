import { useId } from 'react'
import type { NameSuggestion } from '../../../shared/domain/query'
import { formatCount } from '../format/format-value'

interface DidYouMeanProps {
  readonly suggestions: readonly NameSuggestion[]
  /** Puts a suggestion's text in the search box, which searches for it. */
  readonly onApply: (text: string) => void
}

function employeesWord(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'employee' : 'employees'}`
}

/**
 * "Did you mean …": the closest saved names to a search that found very little (useNameSuggestions), as a list of
 * buttons in the tab order, each named by the name it searches for and how many saved employees have it; one
 * click (or Enter) searches for it. The closest is the screen's main choice (a larger primary button, before
 * "Look up on the service"). Nothing when there is nothing to suggest.
 */
export function DidYouMean({ suggestions, onApply }: DidYouMeanProps) {
  const headingId = useId()
  if (suggestions.length === 0) return null
  return (
    <div className="did-you-mean">
      <p id={headingId}>Did you mean</p>
      <ul aria-labelledby={headingId}>
        {suggestions.map((suggestion, index) => (
          <li key={suggestion.text}>
            <button
              type="button"
              className={index === 0 ? 'primary did-you-mean-first' : undefined}
              aria-label={`${suggestion.text}, ${employeesWord(suggestion.employees)}`}
              onClick={() => onApply(suggestion.text)}
            >
              <span className="did-you-mean-name">{suggestion.text}</span>
              <span className="did-you-mean-count">{formatCount(suggestion.employees)}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
