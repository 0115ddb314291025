import type { HtmlTagDescriptor, Plugin } from 'vite'
import { contentSecurityPolicy } from '../src/main/shell/window-and-startup/window-security'

/** Finds a CSP <meta> in any attribute spelling and quoting. */
const CSP_META = /<meta\b[^>]*http-equiv\s*=\s*["']?content-security-policy\b/i

/**
 * Writes the production Content-Security-Policy into the built index.html as a <meta>, so the packaged page
 * carries its policy even where main's response header does not reach. Only `vite build` runs it: under the dev
 * server the <meta> would also bind Vite's injected <style> elements and leave the page unstyled, and there the
 * development policy comes as a header from main (src/main/shell/window.ts). The policy text has one source,
 * `contentSecurityPolicy('production')`.
 */
export function cspMetaPlugin(): Plugin {
  return {
    name: 'rosterdesk:csp-meta',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: productionCspMetaTags },
  }
}

/** The tags the build adds to index.html's <head>. */
export function productionCspMetaTags(html: string): HtmlTagDescriptor[] {
  // A second policy in the page would be enforced too and silently tighten this one.
  if (CSP_META.test(html)) {
    throw new Error('index.html already has a Content-Security-Policy <meta>; the build adds it, remove it')
  }
  return [
    {
      tag: 'meta',
      attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy('production') },
      // Before any script or stylesheet, since a <meta> policy governs only what follows it.
      injectTo: 'head-prepend',
    },
  ]
}
