import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { createClient } from './api/client'
import { ClientProvider } from './api/client-context'
import './styles/theme.css'
import './styles/app.css'

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')
const root = createRoot(container)

// Outside RosterDesk (say, the page opened in a browser) there is no bridge to main: say so instead of crashing.
if (typeof window.rosterdesk === 'undefined') {
  root.render(
    <main className="app-main">
      <p className="message message-error" role="alert">
        This page is part of RosterDesk and works only inside the RosterDesk app.
      </p>
    </main>,
  )
} else {
  root.render(
    <StrictMode>
      <ClientProvider client={createClient(window.rosterdesk)}>
        <App />
      </ClientProvider>
    </StrictMode>,
  )
}
