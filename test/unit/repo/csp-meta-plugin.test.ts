import { describe, expect, it } from 'vitest'
import { cspMetaPlugin, productionCspMetaTags } from '../../../scripts/csp-meta-plugin'
import { contentSecurityPolicy } from '../../../src/main/shell/window-and-startup/window-security'

describe('the production CSP <meta> plugin', () => {
  it('runs in `vite build` only, never under the dev server, after the other plugins', () => {
    const plugin = cspMetaPlugin()
    expect(plugin.apply).toBe('build')
    expect(plugin.transformIndexHtml).toEqual({ order: 'post', handler: productionCspMetaTags })
  })

  it("puts contentSecurityPolicy('production') first in <head>", () => {
    expect(productionCspMetaTags('<html><head><meta charset="UTF-8" /></head><body></body></html>')).toEqual([
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy('production') },
        injectTo: 'head-prepend',
      },
    ])
  })

  it('fails the build when index.html already carries a policy, which would be enforced as well', () => {
    for (const html of [
      `<head><meta http-equiv="Content-Security-Policy" content="default-src *"></head>`,
      `<head><META HTTP-EQUIV='content-security-policy' CONTENT="x"></head>`,
      `<head><meta\n  content="x"\n  http-equiv=Content-Security-Policy\n/></head>`,
    ]) {
      expect(() => productionCspMetaTags(html), html).toThrow(/already has a Content-Security-Policy <meta>/)
    }
    expect(productionCspMetaTags('<head><meta http-equiv="refresh" content="5"></head>')).toHaveLength(1)
  })
})
