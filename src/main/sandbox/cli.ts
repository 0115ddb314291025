/** `npm run sandbox -- [options]`: runs the sandbox standalone until Ctrl+C or --lifetime. */
import { parseCliArgs, USAGE } from './cli-args'
import type { SandboxOptions } from './server'
import { startSandbox } from './server'

async function main(): Promise<void> {
  let options: SandboxOptions | 'help'
  try {
    options = parseCliArgs(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(2)
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  let sandbox
  try {
    sandbox = await startSandbox(options)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`sandbox: ${message.split('\n')[0]}\n`)
    process.exit(error instanceof RangeError ? 2 : 1)
  }
  const c = sandbox.credentials
  process.stdout.write(
    [
      `baseUrl=${sandbox.baseUrl}`,
      `clientId=${c.clientId}`,
      `clientSecret=${c.clientSecret}`,
      `redirectUri=${c.redirectUri}`,
      `tenantId=${c.tenantId}`,
    ].join('\n') + '\n',
  )
  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

void main()
