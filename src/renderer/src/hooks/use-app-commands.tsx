import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react'
import { APP_SHORTCUTS, findShortcut, isMacPlatform, type MenuCommand } from '../../../shared/shortcuts'
import { useClient } from '../api/client-context'

/** What can be asked of the window from afar: the menu's and the keyboard's commands, and exporting some rows. */
export interface CommandPayloads extends Record<MenuCommand, undefined> {
  /** "Export selected rows" from the table's row menu: the employees' UUIDs in table order. */
  readonly 'export-rows': readonly string[]
}
export type CommandName = keyof CommandPayloads

type Handler<C extends CommandName> = (payload: CommandPayloads[C]) => void

/**
 * Delivers a command to whichever component carries it out (the export bar exports, the workspace syncs), so the
 * keyboard, the menu and the row menu reach the same code the buttons run. The latest subscriber wins.
 */
export class CommandBus {
  readonly #handlers = new Map<CommandName, Handler<never>[]>()

  on<C extends CommandName>(command: C, handler: Handler<C>): () => void {
    const list = this.#handlers.get(command) ?? []
    list.push(handler as Handler<never>)
    this.#handlers.set(command, list)
    return () => {
      const current = this.#handlers.get(command) ?? []
      this.#handlers.set(
        command,
        current.filter((item) => item !== handler),
      )
    }
  }

  /** True when something carried the command out. */
  dispatch<C extends CommandName>(command: C, payload: CommandPayloads[C]): boolean {
    const handler = this.#handlers.get(command)?.at(-1) as Handler<C> | undefined
    if (handler === undefined) return false
    handler(payload)
    return true
  }
}

const CommandContext = createContext<CommandBus | undefined>(undefined)

export const isMac = typeof navigator !== 'undefined' && isMacPlatform(navigator.platform)

/**
 * Provides one command bus to the window and feeds it from the keyboard (APP_SHORTCUTS, anywhere in the window)
 * and from the application menu (`app:command`).
 */
export function CommandProvider({ children }: { readonly children: ReactNode }) {
  const client = useClient()
  const [bus] = useState(() => new CommandBus())
  useEffect(() => client.on('app:command', (command) => void bus.dispatch(command, undefined)), [bus, client])
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented) return
      const command = findShortcut(event, APP_SHORTCUTS, isMac)
      if (command === undefined) return
      // Always claimed, so Ctrl+R and F5 never reload the window, even when nothing can sync right now; a held
      // key's repeats too, or macOS hands each repeat to the menu's accelerator (Electron's registerAccelerator:
      // false holds only on Windows and Linux) and the command runs again and again.
      event.preventDefault()
      if (event.repeat) return
      bus.dispatch(command, undefined)
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [bus])
  return <CommandContext.Provider value={bus}>{children}</CommandContext.Provider>
}

/** The window's command bus; a component outside the provider (a test rendering it alone) gets a private one. */
export function useCommandBus(): CommandBus {
  const bus = useContext(CommandContext)
  const [own] = useState(() => new CommandBus())
  return bus ?? own
}

/** Carries out `command` while mounted, with the handler of the latest render. */
export function useCommand<C extends CommandName>(command: C, handler: Handler<C>): void {
  const bus = useCommandBus()
  const latest = useRef(handler)
  useEffect(() => {
    latest.current = handler
  })
  useEffect(() => bus.on(command, (payload: CommandPayloads[C]) => latest.current(payload)), [bus, command])
}
