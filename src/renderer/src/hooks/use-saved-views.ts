import { useCallback, useEffect, useState, type FormEvent } from 'react'
import {
  findViewByName,
  normalizeViewName,
  viewNameProblem,
  type SavedView,
  type ViewState,
} from '../../../shared/view-schema'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'

/** What the views menu is doing besides listing: naming a view to save, renaming one, or confirming a delete. */
export type ViewsTask =
  | { readonly kind: 'list' }
  | { readonly kind: 'save'; readonly name: string; readonly replacing: SavedView | undefined }
  | { readonly kind: 'rename'; readonly id: string; readonly name: string }
  | { readonly kind: 'delete'; readonly view: SavedView }

export const LIST: ViewsTask = { kind: 'list' }

/** The profile's saved views and the step the menu is at; see useSavedViews. */
export interface SavedViews {
  /** Undefined until `views:list` answers. */
  readonly views: readonly SavedView[] | undefined
  readonly task: ViewsTask
  /** What went wrong, or the question a step asks ("Replace it…?"). */
  readonly problem: string | undefined
  /** The view last applied or saved here, while it exists. */
  readonly applied: SavedView | undefined
  /** Starts a step (naming, renaming, confirming a delete) with the last step's problem gone. */
  start(task: ViewsTask): void
  /** Changes the step in progress (a name typed), or goes back to the list, keeping the problem. */
  setTask(task: ViewsTask): void
  /** Back to the list with no problem: Esc, or the menu closing. */
  reset(): void
  /** Saves what is on screen under the name typed, once the clerk said to replace a view of that name. */
  submitSave(event: FormEvent): void
  submitRename(event: FormEvent): void
  remove(view: SavedView): void
  /** The clerk applied this view: the toolbar button names it from now on. */
  markApplied(view: SavedView): void
}

/**
 * The saved views behind the "Views" menu (`views:list`), and the steps that change them: save the view on screen
 * (`views:save`, asking before it replaces a view of the same name), rename and delete (`views:rename`,
 * `views:delete`). Each change answers with the new list; a refusal is kept as the problem to show.
 */
export function useSavedViews(current: ViewState): SavedViews {
  const client = useClient()
  const [views, setViews] = useState<readonly SavedView[]>()
  const [task, setTask] = useState<ViewsTask>(LIST)
  const [problem, setProblem] = useState<string>()
  const [appliedId, setAppliedId] = useState<string>()

  const load = useCallback(() => {
    client.call('views:list').then(setViews, (error: unknown) => setProblem(errorMessage(error)))
  }, [client])
  useEffect(load, [load])

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

  const reset = useCallback((): void => {
    setTask(LIST)
    setProblem(undefined)
  }, [])

  const submitRename = (event: FormEvent): void => {
    event.preventDefault()
    if (task.kind !== 'rename') return
    run(client.call('views:rename', task.id, task.name))
  }

  return {
    views,
    task,
    problem,
    applied: views?.find((view) => view.id === appliedId),
    start: (next) => {
      setProblem(undefined)
      setTask(next)
    },
    setTask,
    reset,
    submitSave,
    submitRename,
    remove: (view) => run(client.call('views:delete', view.id)),
    markApplied: (view) => setAppliedId(view.id),
  }
}
