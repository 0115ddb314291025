import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { getConfig as loadBuilderConfig } from 'app-builder-lib/out/util/config/load'
import { DebugLogger } from 'builder-util'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain JavaScript module, typed by what the test reads of it
import { builderConfig, updatePublish } from '../../../electron-builder.config.mjs'

/**
 * Where a build looks for updates (decision 044): electron-builder.config.mjs adds a `publish` to
 * electron-builder.json from the environment at `npm run dist`, and electron-builder's own schema validation
 * (app-builder-lib's validateConfiguration, what `electron-builder` runs before building) accepts each result.
 */

const ROOT = resolve(__dirname, '../../..')
type Config = Record<string, unknown> & { publish?: unknown }
const typedBuilderConfig = builderConfig as (env: Record<string, string | undefined>) => Config
const typedUpdatePublish = updatePublish as (env: Record<string, string | undefined>) => Config

async function validate(config: Config): Promise<void> {
  await validateConfiguration(config as never, new DebugLogger(false))
}

describe('the update feed a build names', () => {
  it('is none without the environment’s say: publish null, so no app-update.yml', async () => {
    const config = typedBuilderConfig({})
    // null, so a GH_TOKEN in the environment does not make electron-builder pick GitHub Releases itself.
    expect(config.publish).toBeNull()
    expect(config).toEqual({
      ...JSON.parse(readFileSync(join(ROOT, 'electron-builder.json'), 'utf8')),
      publish: null,
    })
    await validate(config)
  })

  it('is a generic HTTPS server from ROSTERDESK_UPDATE_URL, or GitHub Releases from ROSTERDESK_UPDATE_GITHUB', async () => {
    const generic = typedBuilderConfig({ ROSTERDESK_UPDATE_URL: 'https://updates.example.com/rosterdesk/' })
    expect(generic.publish).toEqual([{ provider: 'generic', url: 'https://updates.example.com/rosterdesk/' }])
    await validate(generic)
    const github = typedBuilderConfig({ ROSTERDESK_UPDATE_GITHUB: 'example-payroll/rosterdesk' })
    expect(github.publish).toEqual([
      { provider: 'github', owner: 'example-payroll', repo: 'rosterdesk', releaseType: 'release' },
    ])
    await validate(github)
    // beta.yml beside latest.yml for every release, so the beta channel always sees the newest.
    expect(generic['generateUpdatesFilesForAllChannels']).toBe(true)
    // The validation is real: a publish entry with a key electron-builder does not know is refused.
    await expect(
      validate({ ...generic, publish: [{ provider: 'generic', url: 'https://u.example/', feed: 'x' }] }),
    ).rejects.toThrow(/publish/)
  })

  it('refuses a feed that is not https, a malformed repository, or both at once', () => {
    expect(() => typedUpdatePublish({ ROSTERDESK_UPDATE_URL: 'http://updates.example.com/' })).toThrow(
      /https/,
    )
    expect(() => typedUpdatePublish({ ROSTERDESK_UPDATE_GITHUB: 'just-a-name' })).toThrow(/owner\/repo/)
    expect(() =>
      typedUpdatePublish({ ROSTERDESK_UPDATE_URL: 'https://u.example/', ROSTERDESK_UPDATE_GITHUB: 'a/b' }),
    ).toThrow(/not both/)
  })

  it('loads as electron-builder loads `--config electron-builder.config.mjs`', async () => {
    const { result } = (await loadBuilderConfig(
      { packageKey: 'build', configFilename: 'electron-builder', projectDir: ROOT, packageMetadata: null },
      'electron-builder.config.mjs',
    )) as { result: Config }
    expect(result).toEqual(typedBuilderConfig(process.env))
  })
})
