/**
 * The browser test harness: the built renderer served on 127.0.0.1 with `window.rosterdesk` carried over HTTP to
 * InvokeHandlers in the test process (see server.ts and bridge.ts).
 */
export { startHarness, type Harness, type HarnessOptions } from './server'
export { createEventHub, type EventHub, type EventListener } from './event-hub'
export { ensureRendererBuilt, RENDERER_OUT_DIR } from './build-renderer'
export { bridgeInitScript, installRosterDeskBridge } from './bridge'
export { openApp, emulateZoom, SCREENSHOT_DIR, SCREENSHOTS_WANTED, type AppPage } from './app-page'
export { startAppUnderTest, type AppUnderTest, type AppUnderTestOptions } from './app-under-test'
