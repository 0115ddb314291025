import { chordLabel, SHORTCUT_SECTIONS } from '../../../shared/shortcuts'
import { isMac } from '../hooks/use-app-commands'
import { ModalDialog } from './modal-dialog'

/**
 * Help → Keyboard shortcuts: every shortcut of the one table (shared/shortcuts.ts) that the key handlers and the
 * menu read too, so the list cannot promise a key that does nothing. A modal dialog (`ModalDialog`): Tab stays
 * in it, Esc or Close shuts it, and the opener gets the focus back.
 */
export function ShortcutsDialog({ onClose }: { readonly onClose: () => void }) {
  return (
    <ModalDialog
      title="Keyboard shortcuts"
      className="shortcuts-dialog"
      onClose={onClose}
      head={{
        className: 'shortcuts-head',
        controls: (
          <button type="button" data-autofocus onClick={onClose}>
            Close
          </button>
        ),
      }}
    >
      {SHORTCUT_SECTIONS.map((section) => (
        <section key={section.title} aria-label={section.title}>
          <h3>{section.title}</h3>
          <table className="shortcuts-table">
            <tbody>
              {section.shortcuts.map((shortcut) => (
                <tr key={`${section.title}-${shortcut.id}`}>
                  <th scope="row">
                    {shortcut.chords.map((chord, index) => (
                      <span key={index}>
                        {index > 0 ? ' or ' : null}
                        <kbd>{chordLabel(chord, isMac)}</kbd>
                      </span>
                    ))}
                  </th>
                  <td>{shortcut.label}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </ModalDialog>
  )
}
