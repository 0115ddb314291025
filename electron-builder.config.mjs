import { readFileSync } from 'node:fs'

/**
 * The installers' configuration as `npm run dist` builds them: electron-builder.json, plus where the app looks
 * for updates (decision 044), chosen at build time from the environment, since electron-builder's `${env.NAME}`
 * macro fails the build when NAME is unset (app-builder-lib's macroExpander.js, ERR_ELECTRON_BUILDER_ENV_NOT_DEFINED)
 * and a build without a feed must still work:
 *
 * - ROSTERDESK_UPDATE_URL=https://updates.example.com/rosterdesk/ : a generic HTTPS server holding what
 *   `npm run dist` wrote to dist/ (latest.yml, beta.yml, latest-mac.yml, the installers, zips and blockmaps);
 * - ROSTERDESK_UPDATE_GITHUB=owner/repo : GitHub Releases of that repository;
 * - neither: `publish: null`, so no app-update.yml in the app, which then says "Updates are not set up for this
 *   build" and never checks.
 */
export function updatePublish(env) {
  const url = env.ROSTERDESK_UPDATE_URL?.trim() || undefined
  const github = env.ROSTERDESK_UPDATE_GITHUB?.trim() || undefined
  if (url !== undefined && github !== undefined)
    throw new Error(
      'Set ROSTERDESK_UPDATE_URL or ROSTERDESK_UPDATE_GITHUB, not both: the app reads one feed.',
    )
  if (url !== undefined) {
    if (!/^https:\/\/[^/\s]+/.test(url))
      throw new Error(`ROSTERDESK_UPDATE_URL must be an https:// address; it is "${url}".`)
    return { publish: [{ provider: 'generic', url }] }
  }
  if (github !== undefined) {
    const match = /^([\w.-]+)\/([\w.-]+)$/.exec(github)
    if (match === null) throw new Error(`ROSTERDESK_UPDATE_GITHUB must be owner/repo; it is "${github}".`)
    return { publish: [{ provider: 'github', owner: match[1], repo: match[2], releaseType: 'release' }] }
  }
  // null, not absent: electron-builder would otherwise pick GitHub itself whenever GH_TOKEN or GITHUB_TOKEN is
  // set (PublishManager.js, resolvePublishConfigurations), and a developer's token would name a feed.
  return { publish: null }
}

/** electron-builder.json with the feed `env` names, if any. */
export function builderConfig(env) {
  const base = JSON.parse(readFileSync(new URL('./electron-builder.json', import.meta.url), 'utf8'))
  return { ...base, ...updatePublish(env) }
}

export default builderConfig(process.env)
