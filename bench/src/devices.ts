// Paired devices for the release phase's device bookings: each is the device program's own
// code (device/src: the work-item protocol, its journal, its platform calls with the device's
// own sign-in and User-Agent), run in this process on a WebSocket to the service, so ten devices
// cost no ten Node processes on a 2-core machine. Paired through the Settings page as a diner
// would, signed in to the sandbox platform on the "device" only.
import { Journal, memoryJournal } from '../../device/src/journal'
import { serve } from '../../device/src/serve'
import { DEVICE_USER_AGENT, DeviceSignIn, performCall } from '../../device/src/work'
import { createPlatformClient } from '../../src/platform/client'
import { patiently, type WebUser } from './users'

/** Node's WebSocket (undici's) takes request headers, as device/src/link.ts uses it; the DOM type does not say so. */
const NodeWebSocket = WebSocket as unknown as new (url: string, init: { headers: Record<string, string> }) => WebSocket

export interface BenchDevice {
  close(): void
}

export async function pairedDevice(
  user: WebUser,
  options: { service: string; platformBase: string; apiKey: string; platformEmail: string; name: string; log: (line: string) => void },
): Promise<BenchDevice> {
  const credential = await user.pairDevice(options.name)
  const platform = createPlatformClient({
    fetcher: globalThis,
    baseUrl: options.platformBase,
    apiKey: options.apiKey,
    timeoutMs: 8_000,
    userAgent: DEVICE_USER_AGENT,
  })
  const login = await patiently(() => platform.login(options.platformEmail, 'sandbox'))
  if (login.kind !== 'ok') throw new Error(`the device could not sign in to the sandbox: ${login.kind}`)
  const { authToken, refreshToken, paymentMethodId, displayName } = login.value
  const signIn = new DeviceSignIn(platform, { authToken, refreshToken, paymentMethodId, displayName, obtainedAt: Date.now() })
  // Connected again 1 s after a drop, as the device program's link does (device/src/link.ts, which
  // cannot be stopped, so a bench that ends would wait on it): the local runtime drops connections
  // under load, and a device gone for good would leave its user's checks unanswered.
  let stopped = false
  let drops = 0
  let items = 0
  const connect = () =>
    new Promise<void>((resolve, reject) => {
      const ws = new NodeWebSocket(`${options.service.replace(/^http/, 'ws')}/device/v1/connect`, {
        headers: { Authorization: `Bearer ${credential}` },
      })
      socket = ws
      let opened = false
      ws.addEventListener('open', () => {
        opened = true
        serve(ws, {
          journal,
          version: 'bench',
          platform: () => ({ connected: true, displayName, paymentMethodOnFile: paymentMethodId !== null }),
          perform: (call) => performCall(platform, signIn, call),
          onWork: () => {
            items += 1
          },
        })
        resolve()
      })
      ws.addEventListener('close', (event) => {
        // The first connection must open (the pairing is wrong otherwise); later ones are tried until one does.
        if (!opened) reject(new Error(`the device ${options.name} could not connect`))
        if (stopped || (!opened && drops === 0)) return
        if (opened) drops += 1
        options.log(`${options.name}: ${opened ? `disconnected (${event.code})` : 'could not connect'}, trying again in 1 s`)
        setTimeout(() => void connect().catch(() => {}), 1_000)
      })
    })
  const journal = new Journal(memoryJournal())
  let socket: WebSocket | null = null
  await connect()
  await user.bookFrom('user_device')
  return {
    close: () => {
      stopped = true
      socket?.close()
      options.log(`${options.name}: ${items} work items received, ${drops} drops`)
    },
  }
}
