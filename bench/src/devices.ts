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
  options: { service: string; platformBase: string; apiKey: string; platformEmail: string; name: string },
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
  const ws = new NodeWebSocket(`${options.service.replace(/^http/, 'ws')}/device/v1/connect`, {
    headers: { Authorization: `Bearer ${credential}` },
  })
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve())
    ws.addEventListener('error', () => reject(new Error(`the device ${options.name} could not connect`)))
  })
  serve(ws, {
    journal: new Journal(memoryJournal()),
    version: 'bench',
    platform: () => ({ connected: true, displayName, paymentMethodOnFile: paymentMethodId !== null }),
    perform: (call) => performCall(platform, signIn, call),
  })
  await user.bookFrom('user_device')
  return { close: () => ws.close() }
}
