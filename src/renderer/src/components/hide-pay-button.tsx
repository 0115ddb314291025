import { useState } from 'react'
import { errorMessage } from '../api/client'

interface HidePayButtonProps {
  /** Whether money columns are hidden now (the profile's `hidePay` setting). */
  readonly hidePay: boolean
  /** Saves the choice in the profile's settings; rejects with main's words when it cannot. */
  readonly onChange: (hidePay: boolean) => Promise<unknown>
}

/**
 * "Hide pay": one click leaves the money columns off the screen and the printed page, for a screen read over the
 * clerk's shoulder; a toggle button (aria-pressed), remembered per profile in its settings. The button shows the
 * new state at once and goes back if the setting could not be saved, saying why.
 */
export function HidePayButton({ hidePay, onChange }: HidePayButtonProps) {
  const [pending, setPending] = useState<boolean>()
  const [problem, setProblem] = useState<string>()
  const pressed = pending ?? hidePay
  const toggle = (): void => {
    const next = !pressed
    setPending(next)
    setProblem(undefined)
    onChange(next).then(
      () => setPending(undefined),
      (error: unknown) => {
        setPending(undefined)
        setProblem(errorMessage(error))
      },
    )
  }
  return (
    <>
      <button
        type="button"
        className="hide-pay"
        aria-pressed={pressed}
        title={pressed ? 'Pay is hidden on screen and when printing; click to show it' : undefined}
        onClick={toggle}
      >
        {/* A tick says "on" to the eye; the name stays "Hide pay", whose state aria-pressed says. */}
        {pressed ? <span aria-hidden="true">✓ </span> : null}
        Hide pay
      </button>
      {problem !== undefined && (
        <span className="message-error" role="alert">
          {problem}
        </span>
      )}
    </>
  )
}
