/** Says plainly that the app is working from its local copy, so a clerk on a train knows the data is cached. */
export function OfflineIndicator({ offline }: { readonly offline: boolean }) {
  if (!offline) return null
  return (
    <span className="offline-indicator" role="status" title="Showing employees from the last sync">
      Offline — showing saved employees
    </span>
  )
}
