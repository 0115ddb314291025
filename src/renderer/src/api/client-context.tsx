import { createContext, useContext, type ReactNode } from 'react'
import type { RosterDeskClient } from './client'

const ClientContext = createContext<RosterDeskClient | undefined>(undefined)

/** Makes the client available to every component; tests pass one built on a fake API. */
export function ClientProvider({ client, children }: { client: RosterDeskClient; children: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>
}

/** The client of the nearest ClientProvider. */
export function useClient(): RosterDeskClient {
  const client = useContext(ClientContext)
  if (!client) throw new Error('useClient needs a ClientProvider above it')
  return client
}
