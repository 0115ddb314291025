import type { ChangeReport } from '../../../shared/domain'
import { formatCount } from '../format/format-value'

/** What the last sync changed: counts at a glance, names on request. */
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
        <SampleList title="Added" names={report.addedSample.map((item) => item.name)} total={report.added} />
        <SampleList
          title="Removed"
          names={report.removedSample.map((item) => item.name)}
          total={report.removed}
        />
        <SampleList
          title="Changed"
          names={report.changedSample.map((item) => `${item.name} (${item.fields.join(', ')})`)}
          total={report.changed}
        />
      </div>
    </details>
  )
}

function SampleList({ title, names, total }: { title: string; names: readonly string[]; total: number }) {
  if (total === 0) return null
  const more = total - names.length
  return (
    <section>
      <h3>{title}</h3>
      <ul>
        {names.map((name, index) => (
          <li key={index}>{name}</li>
        ))}
      </ul>
      {more > 0 && <p className="muted">…and {formatCount(more)} more</p>}
    </section>
  )
}
