import type { ProxyConfig } from 'electron'
import type { ProxyChoice } from '../../core/settings/network-settings'

/**
 * A proxy choice as Electron's `ses.setProxy` takes it (electron 45.4.1, docs/api/structures/proxy-config.md):
 * 'system' (the OS's settings, PAC/WPAD included), 'direct', 'fixed_servers' with the proxy as its rule and the
 * bypass list as Chromium's comma-separated rules, or 'pac_script' with the PAC file's URL. Chromium bypasses
 * loopback addresses for every proxy unless the bypass list says `<-loopback>`.
 */
export function electronProxyConfig(choice: ProxyChoice): ProxyConfig {
  switch (choice.mode) {
    case 'system':
      return { mode: 'system' }
    case 'none':
      return { mode: 'direct' }
    case 'fixed':
      return {
        mode: 'fixed_servers',
        proxyRules: choice.proxyUrl,
        proxyBypassRules: choice.bypass
          .split(/[\s,;]+/)
          .filter((entry) => entry !== '')
          .join(','),
      }
    case 'pac':
      return { mode: 'pac_script', pacScript: choice.pacUrl }
  }
}
