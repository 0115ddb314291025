import { useCallback, useEffect, useState } from 'react'
import type { ProxySignInAnswer, ProxySignInRequest } from '../../../shared/connection-report'
import { useClient } from '../api/client-context'

export interface ProxySignInController {
  /** The request the dialog asks about now; the others wait behind it, in the order they came. */
  readonly current: ProxySignInRequest | undefined
  /** How many more wait after the current one. */
  readonly waiting: number
  /**
   * Sends the clerk's answer (credentials, or null for Cancel) to main, then shows the next request, if any;
   * rejects (a ClientError) when main could not be told, and the request stays to be answered again.
   */
  answer(id: string, answer: ProxySignInAnswer): Promise<void>
}

/**
 * The proxies' sign-in requests (`network:proxy-sign-in`, main meeting a proxy's challenge), asked one at a
 * time: each is answered with `network:answer-proxy-sign-in`, then the next is shown. A request sent again under
 * the same id replaces the waiting one (its latest words, such as "retry"). Main answers false for a challenge no
 * longer waiting (its request ended meanwhile): that request is done with all the same.
 */
export function useProxySignIn(): ProxySignInController {
  const client = useClient()
  const [queue, setQueue] = useState<readonly ProxySignInRequest[]>([])

  useEffect(
    () =>
      client.on('network:proxy-sign-in', (request) =>
        setQueue((current) =>
          current.some((each) => each.id === request.id)
            ? current.map((each) => (each.id === request.id ? request : each))
            : [...current, request],
        ),
      ),
    [client],
  )

  const answer = useCallback(
    async (id: string, reply: ProxySignInAnswer) => {
      await client.call('network:answer-proxy-sign-in', id, reply)
      setQueue((current) => current.filter((each) => each.id !== id))
    },
    [client],
  )

  return { current: queue[0], waiting: Math.max(0, queue.length - 1), answer }
}
