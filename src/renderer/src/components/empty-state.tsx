import type { ReactNode } from 'react'

interface EmptyStateProps {
  readonly title: string
  readonly children?: ReactNode
  readonly tone?: 'plain' | 'error'
}

/** A message in place of the table that says what to do next. */
export function EmptyState({ title, children, tone = 'plain' }: EmptyStateProps) {
  return (
    <div className={`empty-state empty-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <h2>{title}</h2>
      {children}
    </div>
  )
}
