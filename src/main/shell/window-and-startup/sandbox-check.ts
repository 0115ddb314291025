/**
 * Why Chromium's sandbox is off in this run, as the log says it, or undefined when it is on. Chromium turns the
 * sandbox off for every process, the window's renderer included, under `--no-sandbox` (whatever
 * `webPreferences.sandbox` says). electron-builder's AppImage launcher adds the switch itself where
 * `unshare -Ur true` fails, that is where unprivileged user namespaces are off (the AppRun written by
 * app-builder-lib 26.17.0, src/targets/appimage/appImageUtil.ts: "NO_SANDBOX=(--no-sandbox)"); the AppImage
 * runtime names the image in the APPIMAGE variable.
 */
export function sandboxOffReason(
  switches: { hasSwitch(name: string): boolean },
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (!switches.hasSwitch('no-sandbox')) return undefined
  const appImage = env['APPIMAGE']
  return appImage === undefined || appImage === ''
    ? "RosterDesk was started with --no-sandbox: Chromium's sandbox is off for every process"
    : "RosterDesk was started with --no-sandbox by its AppImage launcher (this system allows no unprivileged user namespaces): Chromium's sandbox is off for every process"
}
