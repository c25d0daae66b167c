// The simulation's paired devices: some users book from a device, which runs the
// device program's own code (device/src: journal, socket handling, platform calls with its own
// sign-in) over real WebSockets to the service. The devices misbehave on purpose: they drop the
// connection in the middle of a booking (before or after the platform took it), send results
// twice, restart mid-work (the journal file survives, memory does not), and stay offline for
// whole rounds. Their randomness is a generator of its own, so the run's plan stays the seed's.
import { env, SELF } from 'cloudflare:test'
import { Journal, type JournalStore, memoryJournal } from '../../../device/src/journal'
import { serve } from '../../../device/src/serve'
import { DEVICE_USER_AGENT, DeviceSignIn, performCall } from '../../../device/src/work'
import { startPairing } from '../../../src/auth/device-credentials'
import { chooseExecution, pairDevice } from '../../../src/devices/device-settings'
import type { WorkCall, WorkResult } from '../../../src/platform/device-protocol'
import { platformFromEnv } from '../../../src/platform/from-env'
import type { Deps } from '../../../src/runtime/deps'
import { homeFetcher } from '../../helpers/home-fetcher'
import type { Rng } from './random'

export interface DeviceStats {
  connects: number
  dropsMidBooking: number
  restartsMidWork: number
  duplicateResults: number
  offlineRounds: number
  /** Bookings on the platform made by a device (the ledger's client). */
  bookings: number
}

interface SimDevice {
  userId: string
  credential: string
  signIn: DeviceSignIn
  account: { displayName: string; paymentMethodId: number | null }
  /** The journal's file: it outlives a restart of the program. */
  store: JournalStore
  journal: Journal
  ws: WebSocket | null
}

const never = new Promise<WorkResult>(() => {})

export class DeviceFleet {
  readonly stats: DeviceStats = { connects: 0, dropsMidBooking: 0, restartsMidWork: 0, duplicateResults: 0, offlineRounds: 0, bookings: 0 }
  readonly #devices: SimDevice[] = []
  /** The devices call from home: a second local address, as the entry worker would name it (CF-Connecting-IP). */
  readonly #platform = platformFromEnv(env, { userAgent: DEVICE_USER_AGENT, fetcher: homeFetcher() })
  /** Each work item's id, by the call serve() hands to perform. */
  readonly #ids = new WeakMap<WorkCall, string>()
  #books = 0

  constructor(private readonly rng: Rng) {}

  /** Pairs a device for the user, signs it in to the platform account, and books from it. */
  async add(deps: Deps, userId: string, email: string): Promise<void> {
    const { userCode } = await startPairing(deps.db, userId, Date.now())
    const { credential } = await pairDevice(deps, { userCode, deviceName: `sim ${userId}`, address: 'simulation' })
    const login = await this.#platform.login(email, 'simulated')
    if (login.kind !== 'ok') throw new Error(`device login for ${email}: ${login.kind}`)
    await chooseExecution(deps, userId, { execution: 'user_device', cloudFallback: false })
    const store = memoryJournal()
    const signIn = new DeviceSignIn(this.#platform, login.value)
    this.#devices.push({ userId, credential, signIn, account: login.value, store, journal: new Journal(store), ws: null })
  }

  /** Devices that are off come back, except some that stay off this round (never while settling). */
  async reconnect(settling: boolean): Promise<void> {
    for (const device of this.#devices) {
      if (device.ws && device.ws.readyState === WebSocket.OPEN) continue
      if (!settling && this.rng.chance(0.2)) {
        this.stats.offlineRounds += 1
        continue
      }
      await this.#connect(device)
    }
  }

  async #connect(device: SimDevice): Promise<void> {
    const res = await SELF.fetch('http://localhost/device/v1/connect', {
      headers: { Upgrade: 'websocket', Authorization: `Bearer ${device.credential}` },
    })
    const ws = res.webSocket
    if (!ws) throw new Error(`device ${device.userId} could not connect: ${res.status}`)
    ws.accept()
    device.ws = ws
    this.stats.connects += 1
    ws.addEventListener('close', () => {
      if (device.ws === ws) device.ws = null
    })
    serve(ws, {
      journal: device.journal,
      version: 'simulation',
      platform: () => ({
        connected: true,
        displayName: device.account.displayName,
        paymentMethodOnFile: device.account.paymentMethodId !== null,
      }),
      perform: (call) => this.#perform(device, ws, call),
      onWork: (id, call) => this.#ids.set(call, id),
    })
  }

  /** One platform call, and whatever goes wrong around it this time. */
  async #perform(device: SimDevice, ws: WebSocket, call: WorkCall): Promise<WorkResult> {
    // The first booking of the run restarts mid-work and the second drops after the platform
    // answered, so a short run has both; later ones roll.
    const books = call.op === 'book' ? ++this.#books : 0
    const roll = books === 1 ? 0 : books === 2 ? 0.2 : this.rng.next()
    if (call.op === 'book' && roll < 0.15) {
      // The program dies during the call (the platform may or may not have taken it); it
      // restarts from its journal file, which says "started, no result".
      this.stats.restartsMidWork += 1
      if (this.rng.chance(0.5)) await performCall(this.#platform, device.signIn, call)
      device.journal = new Journal(device.store)
      ws.close(1011, 'device restarted')
      return never
    }
    const result = await performCall(this.#platform, device.signIn, call)
    if (call.op === 'book' && roll < 0.3) {
      // The connection drops after the platform answered, before the result goes out: the
      // journal keeps it and sends it after the next hello.
      this.stats.dropsMidBooking += 1
      ws.close(1001, 'connection lost')
      return result
    }
    if (roll > 0.8) {
      // The same result twice: the second must change nothing.
      this.stats.duplicateResults += 1
      setTimeout(() => {
        try {
          ws.send(JSON.stringify({ type: 'result', id: this.#ids.get(call), result }))
        } catch {
          // closed meanwhile
        }
      }, 10)
    }
    return result
  }
}
