import { DiagnosticsStatus } from './components/diagnostics-status'
import { useCallback, useEffect, useRef, useState, type ComponentProps } from 'react'
import { AppHeader, type Screen } from './components/app-header'
import { BrowseView } from './components/browse-view'
import { EmptyState } from './components/empty-state'
import { ProxySignIn } from './components/proxy-sign-in-dialog'
import { ExportRulesProvider } from './components/export-rules-provider'
import { PolicyNotices } from './components/policy-notices'
import { SecretStorageBanner } from './components/secret-storage-banner'
import { SandboxOffBanner } from './components/sandbox-off-banner'
import { CrashNotice } from './components/crash-notice'
import { SettingsScreen } from './components/settings-screen'
import { ShortcutsDialog } from './components/shortcuts-dialog'
import { ExportHistoryDialog } from './components/export-history-dialog'
import { rememberFocus } from './focus/focus-return'
import { CommandProvider, useCommand } from './hooks/use-app-commands'
import { SignInPanel } from './components/sign-in-panel'
import { SignInWaiting } from './components/sign-in-waiting'
import { StaleDataBanner } from './components/stale-data-banner'
import { SyncBar } from './components/sync-bar'
import { UpdateBanner } from './components/update-banner'
import { useAppInfo } from './hooks/use-app-info'
import { useAuth } from './hooks/use-auth'
import { unreachableOf, useOnline } from './hooks/use-online'
import { useProfiles, type ProfilesController } from './hooks/use-profiles'
import type { ProfileList } from '../../shared/domain/profiles'
import type { SignOutDeletes } from '../../shared/policy-view'
import type { AppInfo } from '../../shared/domain/app-info'
import type { AuthState } from '../../shared/domain/auth'
import { useSettings } from './hooks/use-settings'
import { PayDisplayContext, usePayDisplaySettings } from './hooks/use-pay-display'
import { useSync } from './hooks/use-sync'
import { useUpdates, type UpdatesController } from './hooks/use-updates'
import { FRESHNESS_DEFAULTS } from '../../shared/settings-rules'
import type { Settings } from '../../shared/settings-schema'
import { useDisplayFormats } from './format/use-display-formats'

/**
 * The whole app, one profile at a time: everything below is keyed by the count of profile switches, so a switch
 * remounts it and every hook reads its sign-in, settings, status and rows again. No state of one profile (rows, search,
 * a finished sync's message) can outlive the switch and show under the other's name. A proxy's sign-in request is
 * about the computer's network, not a profile: its dialog stays across a switch, as does the updater's state.
 */
export function App() {
  const profiles = useProfiles()
  const updates = useUpdates()
  return (
    <CommandProvider>
      <Workspace key={profiles.generation} profiles={profiles} updates={updates} />
      <ProxySignIn />
    </CommandProvider>
  )
}

interface WorkspaceProps {
  readonly profiles: ProfilesController
  /** Main's updater, which outlives a profile switch. */
  readonly updates: UpdatesController
}

/**
 * One profile's app. Before the first sync it shows the sign-in screen; once employees are saved it shows them,
 * signed in or not, so a clerk without a network (or whose session ended) can still look people up.
 */
function Workspace({ profiles, updates }: WorkspaceProps) {
  const appInfo = useAppInfo()
  const { info, error: infoError } = appInfo
  const auth = useAuth()
  const sync = useSync()
  const settings = useSettings()
  const online = useOnline()
  const { formatLocale, read: formatsRead } = useDisplayFormats(appInfo, settings)
  const { screen, setScreen, settingsAt, enterServiceAddress } = useWorkspaceScreen(profiles)
  const [shortcutsOpen, setShortcutsOpen] = useState(false)
  const closeShortcuts = useCallback(() => setShortcutsOpen(false), [])
  const [historyOpen, setHistoryOpen] = useState(false)
  const closeHistory = useCallback(() => setHistoryOpen(false), [])
  const authStatus = auth.state?.status
  const [refreshSync, reloadSettings] = [sync.refresh, settings.reload]

  // Signing in or out can change the environment, tenant and saved data main reports (and what the policy says).
  useEffect(() => {
    if (authStatus !== undefined && authStatus !== 'signing-in') {
      refreshSync()
      reloadSettings()
    }
  }, [authStatus, auth.signOuts, refreshSync, reloadSettings])

  const unreachable = unreachableOf(online, sync.problem?.code)
  const offline = unreachable === 'offline'
  const signedIn = authStatus === 'signed-in'
  // Ctrl/Cmd+R, F5 and the menu's Sync do what the Sync button does, when it is there to press.
  useCommand('sync', () => {
    if (signedIn && !sync.running) sync.start()
  })
  useCommand('settings', () => setScreen('settings'))
  useCommand('shortcuts', () => setShortcutsOpen(true))
  useCommand('export-history', () => setHistoryOpen(true))
  const payDisplay = usePayDisplaySettings(
    settings.view?.settings,
    settings.view?.policy.maskSensitiveColumns === true,
  )
  const hasData = (sync.status?.employeeCount ?? 0) > 0 || sync.status?.lastComplete !== undefined

  const settingsScreen =
    screen === 'settings' ? (
      <SettingsScreen
        settings={settings}
        inUse={auth.state}
        dataVersion={sync.dataVersion}
        savedEmployees={sync.status?.employeeCount ?? 0}
        savedSource={sync.status?.source}
        profiles={profiles.list}
        {...(settingsAt === undefined ? {} : { openAt: settingsAt })}
        onDone={() => setScreen('browse')}
      />
    ) : null

  const home = (() => {
    if (infoError) {
      return (
        <EmptyState title="RosterDesk could not start" tone="error">
          <p>{infoError}</p>
        </EmptyState>
      )
    }
    if (!auth.state || !sync.status) return <EmptyState title="Starting RosterDesk…" />
    // Before any employees are saved, signing in is all there is to do; afterwards it never hides them.
    if (!signedIn && !hasData) {
      return (
        <SignInPanel
          auth={auth.state}
          error={auth.error}
          onSignIn={auth.signIn}
          onCancel={auth.cancelSignIn}
          onOpenSettings={() => setScreen('settings')}
          missing={serviceFieldMissing(settings.view?.settings)}
          onEnterAddress={enterServiceAddress}
        />
      )
    }
    return (
      <>
        {authStatus === 'signing-in' ? <SignInWaiting onCancel={auth.cancelSignIn} besideData /> : null}
        <StaleDataBanner
          syncedAt={sync.status.lastComplete?.endedAt}
          staleAfterHours={settings.view?.settings.staleAfterHours ?? FRESHNESS_DEFAULTS.staleAfterHours}
          signedIn={signedIn}
          running={sync.running}
          onSyncNow={sync.start}
          onSignIn={auth.signIn}
        />
        {/* The sync bar's change report shows values as the table does (masked ones masked). */}
        <PayDisplayContext.Provider value={payDisplay}>
          <SyncBar
            sync={sync}
            signedIn={signedIn}
            signingIn={authStatus === 'signing-in'}
            onSignIn={auth.signIn}
            authError={auth.error}
          />
          <BrowseView
            sync={sync}
            signedIn={signedIn}
            unreachable={unreachable}
            onSignIn={auth.signIn}
            trackedPayCycles={settings.view?.settings.trackedPayCycles ?? []}
            hidePay={payDisplay.hidePay}
            onHidePayChange={(hidePay) => settings.update({ hidePay })}
          />
        </PayDisplayContext.Provider>
      </>
    )
  })()

  return (
    <div className="app">
      <AppHeader
        info={info}
        auth={auth.state}
        profiles={profiles}
        offline={offline}
        screen={screen}
        onScreen={setScreen}
        onSignOut={auth.signOut}
        signOutDeletes={signOutDeletesOf(settings.view?.policy, sync.status?.employeeCount, profiles.list)}
        rowSource={sync.status?.source}
        sourceSetting={settings.view?.settings}
      />
      <WorkspaceBanners
        info={info}
        auth={auth.state}
        updates={updates}
        policy={settings.view?.policy}
        formatLocale={formatLocale}
      />
      {shortcutsOpen && <ShortcutsDialog onClose={closeShortcuts} />}
      {historyOpen && <ExportHistoryDialog onClose={closeHistory} />}
      <main className="app-main">
        {settingsScreen}
        {/* Kept mounted behind Settings so the clerk's search, filters, sort and scroll survive a visit there. */}
        {/* Keyed by the regional formats: choosing others redraws every cell in them (the view itself is kept
            by views:get-current). */}
        <div className="home" key={formatLocale} hidden={screen === 'settings'}>
          <ExportRulesProvider policy={settings.view?.policy}>
            {formatsRead ? home : null}
          </ExportRulesProvider>
        </div>
      </main>
    </div>
  )
}

/**
 * Whether the profile's environment (Staging or Production) has no service address yet, so signing in cannot start;
 * false for Demo, whose service is built in, and while the settings are not read.
 */
/** The lines above the workspace: the app's state the clerk should know of, each shown only when it applies. */
function WorkspaceBanners({
  info,
  auth,
  updates,
  policy,
  formatLocale,
}: {
  readonly info: AppInfo | undefined
  readonly auth: AuthState | undefined
  readonly updates: UpdatesController
  readonly policy: ComponentProps<typeof PolicyNotices>['policy']
  readonly formatLocale: string
}) {
  return (
    <>
      {info?.sandboxOff === true ? <SandboxOffBanner /> : null}
      {info?.crashedAt === undefined ? null : (
        <CrashNotice crashedAt={info.crashedAt} locale={formatLocale} />
      )}
      {auth?.secretStorage === 'memory-only' ? (
        <SecretStorageBanner savedEmployeesUntilQuit={auth.savedEmployeesUntilQuit === true} />
      ) : null}
      <UpdateBanner updates={updates} />
      <PolicyNotices policy={policy} />
      <DiagnosticsStatus />
    </>
  )
}

/**
 * What Sign out deletes under the machine policy's `clearOnSignOut`: the active profile's saved employees and those
 * it has set aside; undefined without the rule (Sign out then asks nothing).
 */
function signOutDeletesOf(
  policy: { readonly clearsOnSignOut?: boolean | undefined } | undefined,
  saved: number | undefined,
  list: ProfileList | undefined,
): SignOutDeletes | undefined {
  if (policy?.clearsOnSignOut !== true) return undefined
  const active = list?.profiles.find((profile) => profile.id === list.activeId)
  return { saved: saved ?? 0, setAside: active?.setAside?.employeeCount ?? 0 }
}

/** What the profile lacks before signing in can work: its environment's address first, then the client ID. */
function serviceFieldMissing(settings: Settings | undefined): 'address' | 'client-id' | undefined {
  if (settings === undefined || settings.environment === 'demo') return undefined
  if (settings.baseUrls[settings.environment].trim() === '') return 'address'
  return settings.clientId.trim() === '' ? 'client-id' : undefined
}

/**
 * Which screen the workspace shows (the employees, or Settings and where it opens), and the focus's way back:
 * Settings gives the focus back to where the clerk was when it closes (the shortcuts dialog does so itself). A
 * profile just created arrives at its Settings, opened at the service's fields (useProfiles).
 */
function useWorkspaceScreen(profiles: ProfilesController) {
  const arriving =
    profiles.settingsOnArrival !== undefined && profiles.settingsOnArrival === profiles.list?.activeId
  const [screen, showScreen] = useState<Screen>(arriving ? 'settings' : 'browse')
  const [settingsAt, setSettingsAt] = useState<'service' | undefined>(arriving ? 'service' : undefined)
  const { arrived } = profiles
  useEffect(() => {
    if (arriving) arrived()
  }, [arriving, arrived])
  const focusBack = useRef<{ settings?: () => void }>({})
  const setScreen = (next: Screen): void => {
    if (next === 'settings' && screen !== 'settings') {
      // The header's Settings button is replaced while Settings shows; it is where the focus goes back then.
      focusBack.current.settings = rememberFocus(() =>
        document.querySelector<HTMLElement>('.header-actions button'),
      )
    }
    setSettingsAt(undefined)
    showScreen(next)
  }
  /** Settings at the service's fields, for a profile that has no service address yet. */
  const enterServiceAddress = (): void => {
    setScreen('settings')
    setSettingsAt('service')
  }
  useEffect(() => {
    if (screen !== 'browse') return
    focusBack.current.settings?.()
    focusBack.current.settings = undefined
  }, [screen])
  return { screen, setScreen, settingsAt, enterServiceAddress }
}
