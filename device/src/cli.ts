// tablewatch-device: the program a user runs on their own machine to book from it (docs/paired-device.md).
//   pair    exchanges the code shown in Settings for this device's credential
//   login   signs in to the reservation platform here (by a texted code, or a password); the
//           session stays on this machine
//   run     stays connected and does the platform work the service hands it
//   status  says what is stored where (never the secrets)
// The platform calls use the service's own client (src/platform/client.ts).
import { createInterface } from 'node:readline/promises'
import { parseArgs } from 'node:util'
import { createPlatformClient } from '../../src/platform/client'
import { type DeviceFile, deviceHome, fileJournal, type PlatformConfig, readDevice, writeDevice } from './files'
import { fetcherFrom } from './http-fetch'
import { Journal } from './journal'
import { keepConnected } from './link'
import { SignInRelay } from './relay'
import type { Served } from './serve'
import { type SignInMethod, signInOnDevice } from './sign-in'
import { DEVICE_USER_AGENT, type DeviceSession, DeviceSignIn, performCall } from './work'

const VERSION = '1'
const PLATFORM_TIMEOUT_MS = 8000

const USAGE = `Usage: tablewatch-device <command> [options]

  pair   --service URL [--code XXXX-XXXX] [--name NAME]   pair with the code from Settings
  login  [--phone NUMBER] [--email EMAIL]                  sign in to the platform on this device with a
                                                           code texted to your phone (the email, if the
                                                           platform asks for it)
  login  --password [--email EMAIL]                        sign in with the account's password instead
                                                           (prompt, or TABLEWATCH_PLATFORM_PASSWORD)
  run                                                      stay connected and do the work
  status                                                   what this device has stored

  --home DIR             where the device keeps its files (default: $TABLEWATCH_DEVICE_HOME or ~/.config/tablewatch-device)
  --local-address ADDR   (login, run) the address of this machine the platform's calls leave from, kept for run

Platform settings (login): TABLEWATCH_PLATFORM_URL (default https://api.resy.com),
TABLEWATCH_PLATFORM_API_KEY (the platform's public web API key), TABLEWATCH_USER_AGENT (a browser's).`

interface Flags {
  service?: string | undefined
  code?: string | undefined
  name?: string | undefined
  email?: string | undefined
  phone?: string | undefined
  password?: boolean | undefined
  'local-address'?: string | undefined
}

const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`)

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  try {
    return (await rl.question(question)).trim()
  } finally {
    rl.close()
  }
}

function fail(message: string): never {
  console.error(`tablewatch-device: ${message}`)
  process.exit(1)
}

function platformOf(config: PlatformConfig) {
  return createPlatformClient({
    fetcher: fetcherFrom(config.localAddress),
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    timeoutMs: PLATFORM_TIMEOUT_MS,
    userAgent: config.userAgent ?? DEVICE_USER_AGENT,
  })
}

async function pair(home: string, values: Flags) {
  const service = (values.service ?? fail('--service is required (the address of Tablewatch, as shown in Settings)')).replace(/\/$/, '')
  const code = values.code ?? (await ask('Pairing code from Settings: '))
  const name = values.name ?? (await import('node:os')).hostname()
  const res = await fetch(`${service}/device/v1/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code, name }),
  })
  const body = (await res.json().catch(() => ({}))) as { device_id?: string; credential?: string; message?: string }
  if (res.status !== 201 || !body.credential || !body.device_id) fail(body.message ?? `pairing failed (HTTP ${res.status})`)
  const previous = readDevice(home)
  const file: DeviceFile = { service, deviceId: body.device_id, deviceName: name, credential: body.credential }
  if (previous?.session) file.session = previous.session
  if (previous?.platform) file.platform = previous.platform
  const path = writeDevice(home, file)
  console.log(`Paired as "${name}". The credential is in ${path} (mode 0600).`)
  if (!file.session) console.log('Next: tablewatch-device login, then tablewatch-device run.')
}

async function login(home: string, values: Flags) {
  const device = readDevice(home) ?? fail('pair this device first (tablewatch-device pair)')
  const platform: PlatformConfig = {
    baseUrl: process.env.TABLEWATCH_PLATFORM_URL ?? device.platform?.baseUrl ?? 'https://api.resy.com',
    apiKey: process.env.TABLEWATCH_PLATFORM_API_KEY ?? device.platform?.apiKey ?? fail('set TABLEWATCH_PLATFORM_API_KEY'),
    userAgent: process.env.TABLEWATCH_USER_AGENT ?? device.platform?.userAgent,
    localAddress: values['local-address'] ?? device.platform?.localAddress,
  }
  // By code first: most accounts have no password (docs/platform.md, "Sign-in").
  const method: SignInMethod = values.password
    ? {
        by: 'password',
        email: values.email ?? (await ask('Platform email: ')),
        password: process.env.TABLEWATCH_PLATFORM_PASSWORD ?? (await ask('Platform password (used once, never stored): ')),
      }
    : { by: 'code', mobileNumber: values.phone ?? null, email: values.email ?? null }
  const got = await signInOnDevice(platformOf(platform), method, { ask, say: (line) => console.log(line) })
  if (got.kind === 'failed') fail(got.message)
  const { session } = got
  const { paymentMethodId, displayName } = session
  writeDevice(home, { ...device, platform, session })
  console.log(`Signed in as ${displayName}${paymentMethodId === null ? ' (no card on file: alerts work, booking does not)' : ''}.`)
  console.log('The platform token stays in this device’s file; it is never sent to Tablewatch.')
}

/**
 * The platform's settings for `run`: those `login` stored, else the environment's (as `login`
 * reads them), so a device that never ran `login` can still make the sign-ins relayed from
 * Tablewatch's page. `--local-address` here wins over the stored one.
 */
function platformConfigOf(device: DeviceFile, localAddress: string | undefined): PlatformConfig | null {
  const apiKey = device.platform?.apiKey ?? process.env.TABLEWATCH_PLATFORM_API_KEY
  if (!apiKey) return null
  return {
    baseUrl: device.platform?.baseUrl ?? process.env.TABLEWATCH_PLATFORM_URL ?? 'https://api.resy.com',
    apiKey,
    userAgent: device.platform?.userAgent ?? process.env.TABLEWATCH_USER_AGENT,
    localAddress: localAddress ?? device.platform?.localAddress,
  }
}

async function run(home: string, values: Flags) {
  let device = readDevice(home) ?? fail('pair this device first (tablewatch-device pair)')
  const config = platformConfigOf(device, values['local-address'])
  if (!config) log('no platform settings: run tablewatch-device login, or set TABLEWATCH_PLATFORM_API_KEY (working in the meantime)')
  else if (!device.session) log('not signed in to the platform yet: sign in on Tablewatch’s Settings page, or run tablewatch-device login')
  const platform = config ? platformOf(config) : null
  // A renewed sign-in is written back at once: the old refresh token no longer works.
  const keep = (session: DeviceSession) => {
    device = { ...device, ...(config ? { platform: config } : {}), session }
    writeDevice(home, device)
  }
  const signIn = platform ? new DeviceSignIn(platform, device.session ?? null, keep) : null
  let served: Served | null = null
  // A sign-in relayed from Tablewatch's page: this device keeps the session too, and says so.
  const relay =
    platform && signIn
      ? new SignInRelay(
          platform,
          (got) => {
            const { authToken, refreshToken, paymentMethodId, displayName, cdnCookies, refreshVia, refreshExpiresAt } = got
            const session: DeviceSession = {
              authToken,
              refreshToken,
              paymentMethodId,
              displayName,
              obtainedAt: Date.now(),
              cdnCookies,
              refreshVia,
              refreshExpiresAt,
            }
            signIn.adopt(session)
            keep(session)
            log(`signed in to the platform as ${displayName} (relayed from Tablewatch)`)
            served?.hello()
          },
          Date.now,
          (spent, renewed) => {
            // The service's session was refreshed here. When it is this device's own too (a relayed
            // sign-in), the old refresh token is spent: keep the new one, or the next renewal is refused.
            const held = signIn.session
            if (held?.refreshToken !== spent) return
            const session: DeviceSession = { ...held, ...renewed, obtainedAt: Date.now() }
            signIn.adopt(session)
            keep(session)
            log('refreshed the platform session for Tablewatch from this network')
          },
        )
      : undefined
  const journal = new Journal(fileJournal(home))
  log(`connecting to ${device.service} as "${device.deviceName}"`)
  await keepConnected({
    service: device.service,
    credential: device.credential,
    journal,
    version: VERSION,
    log,
    platform: () => {
      const session = signIn?.session ?? null
      return {
        connected: session !== null,
        displayName: session?.displayName ?? null,
        paymentMethodOnFile: session?.paymentMethodId != null,
      }
    },
    perform: async (call) => (platform && signIn ? performCall(platform, signIn, call) : { kind: 'reauth' }),
    onWork: (id, call) => log(`work ${id}: ${call.op}`),
    ...(relay ? { relay } : {}),
    onSignIn: (id, step) => log(`sign-in ${id}: ${step}`),
    onServed: (connection) => {
      served = connection
    },
  })
  process.exit(2)
}

function status(home: string) {
  const device = readDevice(home)
  if (!device) return console.log(`Not paired (looked in ${home}).`)
  console.log(`Paired with ${device.service} as "${device.deviceName}" (${device.deviceId}); files in ${home}.`)
  console.log(
    device.session ? `Platform: signed in as ${device.session.displayName} at ${device.platform?.baseUrl}.` : 'Platform: not signed in.',
  )
}

export async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      service: { type: 'string' },
      code: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
      password: { type: 'boolean' },
      'local-address': { type: 'string' },
      home: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const home = deviceHome(values.home)
  const [command] = positionals
  if (values.help || !command) return console.log(USAGE)
  switch (command) {
    case 'pair':
      return pair(home, values)
    case 'login':
      return login(home, values)
    case 'run':
      return run(home, values)
    case 'status':
      return status(home)
    default:
      fail(`unknown command "${command}"\n\n${USAGE}`)
  }
}

await main(process.argv.slice(2))
