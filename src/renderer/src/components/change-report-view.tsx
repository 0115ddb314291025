import { useState } from 'react'
import type { ChangeKind, ChangeListPage, ChangeReport } from '../../../shared/domain'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { formatCount } from '../format/format-value'

type ChangeItem = ChangeListPage['items'][number]

/** Names fetched per "Show more": enough to scan, small enough to answer at once. */
const PAGE = 100

/** What the last sync changed: counts at a glance, names on request, every name if the clerk asks. */
export function ChangeReportView({ report }: { readonly report: ChangeReport }) {
  const total = report.added + report.removed + report.changed
  const summary = `${formatCount(report.added)} added, ${formatCount(report.removed)} removed, ${formatCount(report.changed)} changed`
  if (total === 0) return <span className="change-report muted">No changes in the last sync</span>
  return (
    <details className="change-report">
      <summary aria-label={`Last sync changes: ${summary}`}>
        <span className="count-added">+{formatCount(report.added)}</span>{' '}
        <span className="count-removed">−{formatCount(report.removed)}</span>{' '}
        <span className="count-changed">~{formatCount(report.changed)}</span>{' '}
        <span className="muted">changes</span>
      </summary>
      <div className="change-report-body">
        <p>{summary}.</p>
        <ChangeList kind="added" title="Added" sample={report.addedSample} total={report.added} />
        <ChangeList kind="removed" title="Removed" sample={report.removedSample} total={report.removed} />
        <ChangeList kind="changed" title="Changed" sample={report.changedSample} total={report.changed} />
      </div>
    </details>
  )
}

interface ChangeListProps {
  readonly kind: ChangeKind
  readonly title: string
  readonly sample: readonly ChangeItem[]
  readonly total: number
}

/** The report's sample first; "Show more" then reads the full list from the cache, a window at a time. */
function ChangeList({ kind, title, sample, total }: ChangeListProps) {
  const client = useClient()
  const [loaded, setLoaded] = useState<readonly ChangeItem[] | undefined>()
  const [loading, setLoading] = useState(false)
  const [problem, setProblem] = useState<string>()
  if (total === 0) return null
  const items = loaded ?? sample
  const more = total - items.length

  const showMore = (): void => {
    setLoading(true)
    setProblem(undefined)
    const offset = loaded?.length ?? 0
    client.call('employees:changes', kind, offset, PAGE).then(
      (page) => {
        setLoaded([...(loaded ?? []), ...page.items])
        setLoading(false)
      },
      (error: unknown) => {
        setProblem(errorMessage(error))
        setLoading(false)
      },
    )
  }

  return (
    <section aria-label={`${title} employees`}>
      <h3>{title}</h3>
      <ul>
        {items.map((item) => (
          <li key={item.UUID}>
            {item.name}
            {item.fields && item.fields.length > 0 ? ` (${item.fields.join(', ')})` : ''}
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="muted">
          …and {formatCount(more)} more{' '}
          <button type="button" className="link" onClick={showMore} disabled={loading}>
            {loading ? 'Loading…' : `Show ${formatCount(Math.min(PAGE, more))} more`}
          </button>
        </p>
      )}
      {problem !== undefined && <p role="alert">{problem}</p>}
    </section>
  )
}
