import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { sameViewState, type SavedView, type ViewState } from '../../../shared/view-schema'
import { LIST, useSavedViews, type ViewsTask } from '../hooks/use-saved-views'

interface ViewsMenuProps {
  /** What the browse view shows now: what "Save view…" keeps. */
  readonly current: ViewState
  /** Puts a saved view's search, filters, sort and columns on screen. */
  onApply(view: SavedView): void
}

/**
 * "Views": the profile's saved views (search, filters, sort and columns under a name). The toolbar button names
 * the view on screen, and says when it was changed since; the panel saves the current one ("Save view…", asking
 * before it replaces a view of the same name), applies, renames and deletes (after a confirmation) saved ones.
 * The views and the steps that change them are useSavedViews'; this is the popover that shows them.
 */
export function ViewsMenu({ current, onApply }: ViewsMenuProps) {
  const saved = useSavedViews(current)
  const { views, task, problem, applied, reset } = saved
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const toggle = useRef<HTMLButtonElement>(null)
  const panelId = 'views-menu-panel'

  const close = useCallback(
    (returnFocus: boolean) => {
      setOpen(false)
      reset()
      if (returnFocus) toggle.current?.focus()
    },
    [reset],
  )

  useEffect(() => {
    if (!open) return
    const onPointer = (event: MouseEvent): void => {
      if (root.current && !root.current.contains(event.target as Node)) close(false)
    }
    document.addEventListener('mousedown', onPointer)
    return () => document.removeEventListener('mousedown', onPointer)
  }, [open, close])

  // Each step puts focus on what the clerk does next: the name to type, or the first choice.
  useEffect(() => {
    if (!open) return
    const panel = root.current?.querySelector<HTMLElement>(`#${panelId}`)
    panel?.querySelector<HTMLElement>('input, button')?.focus()
  }, [open, task.kind])

  const changed = applied !== undefined && !sameViewState(applied.state, current)

  const apply = (view: SavedView): void => {
    saved.markApplied(view)
    onApply(view)
    close(true)
  }

  return (
    <div className="views-menu" ref={root}>
      <button
        type="button"
        ref={toggle}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? close(false) : setOpen(true))}
      >
        {applied === undefined ? 'Views' : `View: ${applied.name}${changed ? ' (changed)' : ''}`}
      </button>
      {open && (
        <div
          className="popover views-panel"
          id={panelId}
          role="dialog"
          aria-label="Saved views"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return
            event.stopPropagation()
            if (task.kind === 'list') close(true)
            else reset()
          }}
        >
          {task.kind === 'save' ? (
            <SaveViewForm
              task={task}
              problem={problem}
              onChange={(name) => saved.start({ kind: 'save', name, replacing: undefined })}
              onSubmit={saved.submitSave}
              onCancel={() => saved.setTask(LIST)}
            />
          ) : (
            <button
              type="button"
              onClick={() => saved.start({ kind: 'save', name: applied?.name ?? '', replacing: undefined })}
            >
              Save view…
            </button>
          )}
          <h2 className="views-heading">Saved views</h2>
          {views === undefined ? (
            <p className="muted">Reading the saved views…</p>
          ) : views.length === 0 ? (
            <p className="muted">
              No saved views yet. Search, filter, sort and choose columns, then “Save view…”.
            </p>
          ) : (
            <ul className="views-list">
              {views.map((view) => (
                <li key={view.id}>
                  <SavedViewItem
                    view={view}
                    task={task}
                    applied={view.id === applied?.id}
                    onStart={saved.start}
                    onTaskChange={saved.setTask}
                    onApply={apply}
                    onRename={saved.submitRename}
                    onDelete={() => saved.remove(view)}
                  />
                </li>
              ))}
            </ul>
          )}
          {problem !== undefined && task.kind !== 'save' && (
            <p className="field-error" role="alert">
              {problem}
            </p>
          )}
        </div>
      )}
    </div>
  )
}

interface SaveViewFormProps {
  readonly task: Extract<ViewsTask, { kind: 'save' }>
  readonly problem: string | undefined
  onChange(name: string): void
  onSubmit(event: FormEvent): void
  onCancel(): void
}

/** "Save view…": the name to keep what is on screen under, and whether it replaces a view of that name. */
function SaveViewForm({ task, problem, onChange, onSubmit, onCancel }: SaveViewFormProps) {
  return (
    <form className="view-form" onSubmit={onSubmit}>
      <label className="field">
        <span>Name this view</span>
        <input value={task.name} maxLength={200} onChange={(event) => onChange(event.target.value)} />
      </label>
      <p className="muted small">Keeps the search, filters, sort and columns on screen, for this profile.</p>
      {problem !== undefined && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary">
          {task.replacing === undefined ? 'Save' : 'Replace'}
        </button>
      </div>
    </form>
  )
}

interface SavedViewItemProps {
  readonly view: SavedView
  readonly task: ViewsTask
  /** Whether this view is the one on screen. */
  readonly applied: boolean
  /** Starts renaming or deleting it (the last problem gone). */
  onStart(task: ViewsTask): void
  /** The new name typed, or back to the list. */
  onTaskChange(task: ViewsTask): void
  onApply(view: SavedView): void
  onRename(event: FormEvent): void
  /** The delete confirmed. */
  onDelete(): void
}

/**
 * One saved view in the list: its name (a click applies it), Rename and Delete; or, while it is being renamed or
 * deleted, the rename form or the delete confirmation.
 */
function SavedViewItem({
  view,
  task,
  applied,
  onStart,
  onTaskChange,
  onApply,
  onRename,
  onDelete,
}: SavedViewItemProps) {
  if (task.kind === 'rename' && task.id === view.id) {
    return (
      <form className="view-form" onSubmit={onRename}>
        <label>
          <span className="visually-hidden">New name for {view.name}</span>
          <input
            value={task.name}
            maxLength={200}
            onChange={(event) => onTaskChange({ ...task, name: event.target.value })}
          />
        </label>
        <button type="submit">Rename</button>
        <button type="button" onClick={() => onTaskChange(LIST)}>
          Cancel
        </button>
      </form>
    )
  }
  if (task.kind === 'delete' && task.view.id === view.id) {
    return (
      <div className="view-confirm" role="group" aria-label={`Delete ${view.name}?`}>
        <span>Delete “{view.name}”?</span>
        <button type="button" onClick={onDelete}>
          Delete
        </button>
        <button type="button" onClick={() => onTaskChange(LIST)}>
          Keep
        </button>
      </div>
    )
  }
  return (
    <div className="view-row">
      <button
        type="button"
        className="view-apply link"
        aria-current={applied ? 'true' : undefined}
        onClick={() => onApply(view)}
      >
        {view.name}
      </button>
      <button
        type="button"
        className="link"
        aria-label={`Rename ${view.name}`}
        onClick={() => onStart({ kind: 'rename', id: view.id, name: view.name })}
      >
        Rename
      </button>
      <button
        type="button"
        className="link"
        aria-label={`Delete ${view.name}`}
        onClick={() => onStart({ kind: 'delete', view })}
      >
        Delete
      </button>
    </div>
  )
}
