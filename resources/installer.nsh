; Registers the sign-in redirect scheme for the installing user. electron-builder's `protocols` setting is
; honoured by the macOS and Linux targets only, so the NSIS installer writes the keys itself (SHCTX: HKCU for a
; per-user install, HKLM for all users). The packaged app registers on start only when Windows does not already
; hand the scheme to it (src/main/shell/window-and-startup/protocol-client.ts), which repairs a key another program took over.
; Keep the scheme equal to DEFAULT_REDIRECT_URI's (test/unit/repo/installer-config.test.ts checks it).
!define ROSTERDESK_SCHEME "com.rosterdesk.app"

!macro customInstall
  ; A per-machine install (/allusers) creates the machine policy's folder, %ProgramData%\RosterDesk, with rights only
  ; administrators can write, as the MSI does (scripts/msi-project.mjs, POLICY_FOLDER_SDDL; decision 047): a folder
  ; made there otherwise inherits "Users may create files", and the app refuses a policy in it. icacls by its full
  ; path; accounts by SID, so no Windows language changes them.
  ${if} $installMode == "all"
    ; $APPDATA is %ProgramData% in the all-users context, the per-machine install's own.
    SetShellVarContext all
    CreateDirectory "$APPDATA\RosterDesk"
    nsExec::Exec '"$SYSDIR\icacls.exe" "$APPDATA\RosterDesk" /inheritance:r /grant:r *S-1-5-18:(OI)(CI)F *S-1-5-32-544:(OI)(CI)F *S-1-5-32-545:(OI)(CI)RX'
    Pop $0
    nsExec::Exec '"$SYSDIR\icacls.exe" "$APPDATA\RosterDesk" /setowner *S-1-5-32-544'
    Pop $0
    ; The marker that turns the app's own updates off (src/main/shell/window-and-startup/msi-install.ts,
    ; PER_MACHINE_MARKER): electron-updater would run each update's installer into Program Files from a standard
    ; user's app, a UAC prompt at every quit; IT deploys the next version, as for the MSI (issue 31).
    WriteINIStr "$INSTDIR\per-machine-install.ini" "RosterDesk" "InstalledBy" "nsis-per-machine"
  ${else}
    Delete "$INSTDIR\per-machine-install.ini"
  ${endif}
  WriteRegStr SHCTX "Software\Classes\${ROSTERDESK_SCHEME}" "" "URL:RosterDesk sign-in"
  WriteRegStr SHCTX "Software\Classes\${ROSTERDESK_SCHEME}" "URL Protocol" ""
  WriteRegStr SHCTX "Software\Classes\${ROSTERDESK_SCHEME}\DefaultIcon" "" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr SHCTX "Software\Classes\${ROSTERDESK_SCHEME}\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
!macroend

!macro customUnInstall
  DeleteRegKey SHCTX "Software\Classes\${ROSTERDESK_SCHEME}"
  Delete "$INSTDIR\per-machine-install.ini"
  ; What the app itself wrote for this user: app.setAsDefaultProtocolClient writes HKCU\Software\Classes\<scheme>
  ; with the command `"<exe>" "%1"` (Electron's shell/browser/browser_win.cc, GetProtocolLaunchPath; AddQuoteForArg
  ; quotes any path with a backslash). Removed only when it starts this install's executable, so another copy's
  ; registration stays. StrCmp compares without regard to case, as Windows paths do.
  ReadRegStr $0 HKCU "Software\Classes\${ROSTERDESK_SCHEME}\shell\open\command" ""
  StrCmp $0 '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"' 0 rosterdesk_user_scheme_done
    DeleteRegKey HKCU "Software\Classes\${ROSTERDESK_SCHEME}"
  rosterdesk_user_scheme_done:
  ; The uninstaller's `--delete-app-data` removes the user's %APPDATA%\RosterDesk (electron-builder's uninstaller.nsh);
  ; the saved employees live in %LOCALAPPDATA%\RosterDesk on Windows (decision 046), so it removes them too. An
  ; update runs the old uninstaller without the flag, so an update never deletes them.
  ClearErrors
  ${GetParameters} $R0
  ${GetOptions} $R0 "--delete-app-data" $R1
  ${ifNot} ${Errors}
    SetShellVarContext current
    RMDir /r "$LOCALAPPDATA\${PRODUCT_FILENAME}"
    ${if} $installMode == "all"
      SetShellVarContext all
    ${endif}
  ${endif}
!macroend
