// A paired device as the tests drive it: pairs through Settings and /device/v1/pair, then keeps
// the WebSocket the device program keeps (through SELF, into the real DeviceObject).
import { SELF } from 'cloudflare:test'
import type { DeviceMessage, DevicePlatformFacts, ServiceMessage } from '../../src/platform/device-protocol'
import type { WebClient } from '../web/web-client'

/** Starts pairing on the settings page and returns the code it shows. */
export async function pairingCode(client: WebClient): Promise<{ code: string; page: string }> {
  const res = await client.post('/settings/devices/pair', { _csrf: await client.csrfFrom('/settings') })
  const page = await res.text()
  const code = /data-testid="user-code"[^>]*>\s*([A-Z]{4}-[A-Z]{4})/.exec(page)?.[1]
  if (!code) throw new Error(`no pairing code on the page (status ${res.status})`)
  return { code, page }
}

export async function pairWith(code: string, name = 'Kitchen Pi'): Promise<Response> {
  return SELF.fetch('http://localhost/device/v1/pair', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code, name }),
  })
}

export async function pairDevice(client: WebClient, name = 'Kitchen Pi'): Promise<{ credential: string; deviceId: string }> {
  const { code } = await pairingCode(client)
  const res = await pairWith(code, name)
  if (res.status !== 201) throw new Error(`pairing failed with ${res.status}: ${await res.text()}`)
  const body = (await res.json()) as { credential: string; device_id: string }
  return { credential: body.credential, deviceId: body.device_id }
}

export const signedIn: DevicePlatformFacts = { connected: true, displayName: 'Test Diner', paymentMethodOnFile: true }

/** One open device connection: what the service sent, and a way to answer. */
export class DeviceSocket {
  readonly received: ServiceMessage[] = []
  closed: { code: number; reason: string } | null = null
  #waiters: (() => void)[] = []

  private constructor(readonly ws: WebSocket) {
    ws.addEventListener('message', (event) => {
      this.received.push(JSON.parse(String(event.data)) as ServiceMessage)
      this.#wake()
    })
    ws.addEventListener('close', (event) => {
      this.closed = { code: event.code, reason: event.reason }
      this.#wake()
    })
  }

  static async open(credential: string): Promise<DeviceSocket> {
    const res = await connect(credential)
    if (!res.webSocket) throw new Error(`no WebSocket (status ${res.status}): ${await res.text()}`)
    res.webSocket.accept()
    return new DeviceSocket(res.webSocket)
  }

  send(message: DeviceMessage | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message))
  }

  hello(platform: DevicePlatformFacts = signedIn): void {
    this.send({ type: 'hello', platform, version: 'test' })
  }

  /** Waits until a message (or the close) satisfies `seen`. */
  async until(seen: (socket: DeviceSocket) => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!seen(this)) {
      if (Date.now() > deadline) throw new Error(`timed out; received ${JSON.stringify(this.received)}`)
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve)
        setTimeout(resolve, 100)
      })
    }
  }

  #wake() {
    for (const w of this.#waiters.splice(0)) w()
  }
}

export function connect(credential: string): Promise<Response> {
  return SELF.fetch('http://localhost/device/v1/connect', { headers: { Upgrade: 'websocket', Authorization: `Bearer ${credential}` } })
}
