; Registers the sign-in redirect scheme for the installing user. electron-builder's `protocols` setting is
; honoured by the macOS and Linux targets only, so the NSIS installer writes the keys itself; the app also
; re-registers on start (app.setAsDefaultProtocolClient), which repairs a key another program took over.
; Keep the scheme equal to DEFAULT_REDIRECT_URI's (test/unit/shell/installer-config.test.ts checks it).
!define ROSTERDESK_SCHEME "com.rosterdesk.app"

!macro customInstall
  WriteRegStr SHCTX "Software\Classes\${ROSTERDESK_SCHEME}" "" "URL:RosterDesk sign-in"
  WriteRegStr SHCTX "Software\Classes\${ROSTERDESK_SCHEME}" "URL Protocol" ""
  WriteRegStr SHCTX "Software\Classes\${ROSTERDESK_SCHEME}\DefaultIcon" "" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr SHCTX "Software\Classes\${ROSTERDESK_SCHEME}\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
!macroend

!macro customUnInstall
  DeleteRegKey SHCTX "Software\Classes\${ROSTERDESK_SCHEME}"
!macroend
