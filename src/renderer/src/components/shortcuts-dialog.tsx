import { useEffect, useId, useRef } from 'react'
import { chordLabel, SHORTCUT_SECTIONS } from '../../../shared/shortcuts'
import { isMac } from '../hooks/use-app-commands'

/**
 * Help → Keyboard shortcuts: every shortcut of the one table (shared/shortcuts.ts) that the key handlers and the
 * menu read too, so the list cannot promise a key that does nothing. Esc or Close shuts it; the opener gets the
 * focus back (see rememberFocus where it is opened).
 */
export function ShortcutsDialog({ onClose }: { readonly onClose: () => void }) {
  const titleId = useId()
  const closeButton = useRef<HTMLButtonElement>(null)
  useEffect(() => closeButton.current?.focus(), [])
  return (
    <div
      className="shortcuts-dialog"
      role="dialog"
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          onClose()
        }
      }}
    >
      <div className="shortcuts-head">
        <h2 id={titleId}>Keyboard shortcuts</h2>
        <button type="button" ref={closeButton} onClick={onClose}>
          Close
        </button>
      </div>
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
    </div>
  )
}
