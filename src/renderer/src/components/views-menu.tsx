import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import {
  findViewByName,
  normalizeViewName,
  sameViewState,
  viewNameProblem,
  type SavedView,
  type ViewState,
} from '../../../shared/view-schema'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

interface ViewsMenuProps {
  /** What the browse view shows now: what "Save view…" keeps. */
  readonly current: ViewState
  /** Puts a saved view's search, filters, sort and columns on screen. */
  onApply(view: SavedView): void
}

/** What the menu is doing besides listing: naming a view to save, renaming one, or confirming a delete. */
type Task =
  | { readonly kind: 'list' }
  | { readonly kind: 'save'; readonly name: string; readonly replacing: SavedView | undefined }
  | { readonly kind: 'rename'; readonly id: string; readonly name: string }
  | { readonly kind: 'delete'; readonly view: SavedView }

const LIST: Task = { kind: 'list' }

/**
 * "Views": the profile's saved views (search, filters, sort and columns under a name). The toolbar button names
 * the view on screen, and says when it was changed since; the panel saves the current one ("Save view…", asking
 * before it replaces a view of the same name), applies, renames and deletes (after a confirmation) saved ones.
 */
export function ViewsMenu({ current, onApply }: ViewsMenuProps) {
  const client = useClient()
  const [open, setOpen] = useState(false)
  const [views, setViews] = useState<readonly SavedView[]>()
  const [task, setTask] = useState<Task>(LIST)
  const [problem, setProblem] = useState<string>()
  const [appliedId, setAppliedId] = useState<string>()
  const root = useRef<HTMLDivElement>(null)
  const toggle = useRef<HTMLButtonElement>(null)
  const panelId = 'views-menu-panel'

  const load = useCallback(() => {
    client.call('views:list').then(setViews, (error: unknown) => setProblem(errorMessage(error)))
  }, [client])
  useEffect(load, [load])

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false)
    setTask(LIST)
    setProblem(undefined)
    if (returnFocus) toggle.current?.focus()
  }, [])

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

  const run = (action: Promise<SavedView[]>, then?: (views: SavedView[]) => void): void => {
    setProblem(undefined)
    action.then(
      (next) => {
        setViews(next)
        setTask(LIST)
        then?.(next)
      },
      (error: unknown) => setProblem(errorMessage(error)),
    )
  }

  const applied = views?.find((view) => view.id === appliedId)
  const changed = applied !== undefined && !sameViewState(applied.state, current)

  const submitSave = (event: FormEvent): void => {
    event.preventDefault()
    if (task.kind !== 'save' || views === undefined) return
    const name = normalizeViewName(task.name)
    const existing = findViewByName(views, name)
    // The same name replaces a view only once the clerk has said so.
    if (existing !== undefined && task.replacing?.id !== existing.id) {
      setTask({ ...task, replacing: existing })
      setProblem(`A view named "${existing.name}" exists. Replace it with what is on screen?`)
      return
    }
    const found = viewNameProblem(
      name,
      views.filter((view) => view.id !== existing?.id).map((view) => view.name),
    )
    if (found !== undefined) {
      setProblem(found)
      return
    }
    run(client.call('views:save', name, current, existing !== undefined), (next) =>
      setAppliedId(findViewByName(next, name)?.id),
    )
  }

  const submitRename = (event: FormEvent): void => {
    event.preventDefault()
    if (task.kind !== 'rename') return
    run(client.call('views:rename', task.id, task.name))
  }

  const apply = (view: SavedView): void => {
    setAppliedId(view.id)
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
            else {
              setTask(LIST)
              setProblem(undefined)
            }
          }}
        >
          {task.kind === 'save' ? (
            <form className="view-form" onSubmit={submitSave}>
              <label className="field">
                <span>Name this view</span>
                <input
                  value={task.name}
                  maxLength={200}
                  onChange={(event) => {
                    setProblem(undefined)
                    setTask({ kind: 'save', name: event.target.value, replacing: undefined })
                  }}
                />
              </label>
              <p className="muted small">
                Keeps the search, filters, sort and columns on screen, for this profile.
              </p>
              {problem !== undefined && (
                <p className="field-error" role="alert">
                  {problem}
                </p>
              )}
              <div className="dialog-actions">
                <button type="button" onClick={() => setTask(LIST)}>
                  Cancel
                </button>
                <button type="submit" className="primary">
                  {task.replacing === undefined ? 'Save' : 'Replace'}
                </button>
              </div>
            </form>
          ) : (
            <button
              type="button"
              onClick={() => {
                setProblem(undefined)
                setTask({ kind: 'save', name: applied?.name ?? '', replacing: undefined })
              }}
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
                  {task.kind === 'rename' && task.id === view.id ? (
                    <form className="view-form" onSubmit={submitRename}>
                      <label>
                        <span className="visually-hidden">New name for {view.name}</span>
                        <input
                          value={task.name}
                          maxLength={200}
                          onChange={(event) => setTask({ ...task, name: event.target.value })}
                        />
                      </label>
                      <button type="submit">Rename</button>
                      <button type="button" onClick={() => setTask(LIST)}>
                        Cancel
                      </button>
                    </form>
                  ) : task.kind === 'delete' && task.view.id === view.id ? (
                    <div className="view-confirm" role="group" aria-label={`Delete ${view.name}?`}>
                      <span>Delete “{view.name}”?</span>
                      <button type="button" onClick={() => run(client.call('views:delete', view.id))}>
                        Delete
                      </button>
                      <button type="button" onClick={() => setTask(LIST)}>
                        Keep
                      </button>
                    </div>
                  ) : (
                    <div className="view-row">
                      <button
                        type="button"
                        className="view-apply link"
                        aria-current={view.id === appliedId ? 'true' : undefined}
                        onClick={() => apply(view)}
                      >
                        {view.name}
                      </button>
                      <button
                        type="button"
                        className="link"
                        aria-label={`Rename ${view.name}`}
                        onClick={() => {
                          setProblem(undefined)
                          setTask({ kind: 'rename', id: view.id, name: view.name })
                        }}
                      >
                        Rename
                      </button>
                      <button
                        type="button"
                        className="link"
                        aria-label={`Delete ${view.name}`}
                        onClick={() => {
                          setProblem(undefined)
                          setTask({ kind: 'delete', view })
                        }}
                      >
                        Delete
                      </button>
                    </div>
                  )}
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
