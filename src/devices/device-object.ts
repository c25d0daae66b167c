// One Durable Object per user with a paired device. The device keeps a WebSocket to
// it; the socket is accepted with the hibernation API, so an idle connection costs nothing. The
// request and availability objects of a user who books from their device hand their platform
// calls to `perform`: the call becomes a work item with an id, is sent to a ready device, and
// the answer comes back as that item's result. Results are stored by id: the second delivery
// of a result changes nothing, and asking again for an id that has a result returns it.
import { DurableObject } from 'cloudflare:workers'
import {
  DeviceMessage,
  type DevicePlatformFacts,
  REVOKED_CLOSE_CODE,
  type ServiceMessage,
  type WorkCall,
  type WorkResult,
} from '../platform/device-protocol'
import { readDeviceResult } from '../platform/device-results'
import type { RelayAnswer, RelayStep } from '../platform/sign-in-relay'
import { deviceOffline, deviceOnline } from './device-presence'

/** What a socket remembers across hibernation. */
interface Attachment {
  deviceId: string
  connectedAt: number
  platform: DevicePlatformFacts | null
  /** The device said it can sign in to the platform for its user (absent in older attachments). */
  relay?: boolean
}

export interface DeviceStatus {
  /** A device is connected and has said hello. */
  connected: boolean
  /** What the connected device says about its platform account (the first ready one's). */
  platform: DevicePlatformFacts | null
  /** Since when no device has been connected (null while one is). */
  offlineSince: number | null
  /** A connected device can make a platform sign-in for the user (sign-in-relay.ts). */
  canSignIn: boolean
}

/** How long a sign-in step may take on the device: the platform's answer to a person waiting on a page. */
const RELAY_TIMEOUT_MS = 20_000

/** A device that said nothing about an item for this long is taken as gone for that item. */
const WORK_TIMEOUT_MS = 20_000
/** How long after the last device left the user is told it is offline. */
const OFFLINE_ALERT_AFTER_MS = 10 * 60 * 1000

type Waiter = (result: WorkResult | null) => void

export class DeviceObject extends DurableObject<Cloudflare.Env> {
  #waiters = new Map<string, Waiter>()
  /** Sign-in steps waited for, in memory only: a sign-in is never stored here (sign-in-relay.ts). */
  #relays = new Map<string, (answer: RelayAnswer | null) => void>()

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env)
    ctx.storage.sql.exec(`create table if not exists work (
      id text primary key, call text not null, created_at integer not null,
      acked_at integer, result text, closed_at integer)`)
    ctx.storage.sql.exec('create table if not exists meta (key text primary key, value text not null)')
  }

  /** The device's WebSocket, already authenticated by the route (src/api/device-api.ts). */
  override async fetch(request: Request): Promise<Response> {
    const deviceId = request.headers.get('X-Device-Id')
    const userId = request.headers.get('X-User-Id')
    if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket' || !deviceId || !userId) {
      return new Response('Expected a WebSocket upgrade', { status: 426 })
    }
    this.#setMeta('user_id', userId)
    const pair = new WebSocketPair()
    const [client, server] = [pair[0], pair[1]]
    this.ctx.acceptWebSocket(server, [deviceId])
    server.serializeAttachment({ deviceId, connectedAt: Date.now(), platform: null } satisfies Attachment)
    return new Response(null, { status: 101, webSocket: client })
  }

  override async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const parsed = DeviceMessage.safeParse(parseJson(raw))
    if (!parsed.success) {
      send(ws, { type: 'error', message: 'Unreadable message: expected hello, ack or result as JSON.' })
      return
    }
    const message = parsed.data
    const now = Date.now()
    switch (message.type) {
      case 'hello': {
        const wasReady = this.#readySockets().length > 0
        const attachment = ws.deserializeAttachment() as Attachment
        ws.serializeAttachment({ ...attachment, platform: message.platform, relay: message.relay === true } satisfies Attachment)
        this.#setMeta('offline_since', '')
        // Items still waited for were maybe lost with the last socket: send them again (the
        // device answers from its journal whatever it already did). Nobody waits for the others
        // any more (this object restarted): they are closed, never sent again.
        for (const row of this.#openItems()) {
          if (this.#waiters.has(row.id)) send(ws, { type: 'work', id: row.id, call: JSON.parse(row.call) as WorkCall })
          else this.ctx.storage.sql.exec('update work set closed_at = ? where id = ?', now, row.id)
        }
        if (!wasReady && message.platform.connected) await deviceOnline(this.env, this.#userId(), now)
        return
      }
      case 'ack':
        this.ctx.storage.sql.exec('update work set acked_at = ? where id = ? and acked_at is null', now, message.id)
        return
      case 'result': {
        const [item] = this.ctx.storage.sql.exec<{ call: string }>('select call from work where id = ?', message.id).toArray()
        // Checked in full against its call: an unreadable booking result is verified on the
        // account, an unreadable read is a failed read (device-results.ts).
        const { result, readable } = item
          ? readDeviceResult(JSON.parse(item.call) as WorkCall, message.result)
          : { result: null, readable: true }
        if (!readable) {
          console.warn(`device.unreadable_result ${JSON.stringify({ id: message.id })}`)
          send(ws, { type: 'error', message: `The result of ${message.id} does not have the shape its call needs.` })
        }
        // Stored once: a second delivery (after a reconnect) changes nothing.
        const stored = result
          ? this.ctx.storage.sql
              .exec(
                'update work set result = ?, closed_at = ? where id = ? and result is null returning id',
                JSON.stringify(result),
                now,
                message.id,
              )
              .toArray()
          : []
        send(ws, { type: 'stored', id: message.id })
        if (result && stored.length > 0) this.#waiters.get(message.id)?.(result)
        return
      }
      case 'signed':
        this.#relays.get(message.id)?.(message.answer)
        return
    }
  }

  override async webSocketClose(ws: WebSocket): Promise<void> {
    await this.#left(ws)
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.#left(ws)
  }

  async #left(closing: WebSocket | null): Promise<void> {
    if (this.#sockets().some((ws) => ws !== closing)) return
    // Nobody can answer the items waited for now: their callers go on (a booking becomes
    // "unknown" and is verified). A result that arrives later is still stored.
    for (const resolve of this.#waiters.values()) resolve(null)
    for (const resolve of this.#relays.values()) resolve(null)
    const now = Date.now()
    this.#setMeta('offline_since', String(now))
    this.#setMeta('offline_alerted', '')
    await this.ctx.storage.setAlarm(now + OFFLINE_ALERT_AFTER_MS)
    await deviceOffline(this.env, this.#userId(), now, 'changed')
  }

  /** Ten minutes offline: the user hears about it once per absence. */
  override async alarm(): Promise<void> {
    const since = this.#offlineSince()
    if (since === null || this.#sockets().length > 0 || this.#meta('offline_alerted')) return
    this.#setMeta('offline_alerted', '1')
    await deviceOffline(this.env, this.#userId(), Date.now(), 'alert')
  }

  async status(): Promise<DeviceStatus> {
    const ready = this.#readySockets()
    const hello = this.#sockets().find((ws) => (ws.deserializeAttachment() as Attachment).platform !== null)
    const platform = ((ready[0] ?? hello)?.deserializeAttachment() as Attachment | undefined)?.platform ?? null
    const canSignIn = this.#relaySockets().length > 0
    return { connected: hello !== undefined, platform, offlineSince: hello ? null : this.#offlineSince(), canSignIn }
  }

  /**
   * One step of a platform sign-in on a connected device that can make it; null when none can,
   * or none answered in time. Kept in memory only: the step (a code, a password) and the answer
   * (a sealed session) are never written to this object's storage.
   */
  async relaySignIn(id: string, step: RelayStep, timeoutMs = RELAY_TIMEOUT_MS): Promise<RelayAnswer | null> {
    const [device] = this.#relaySockets()
    if (!device) return null
    const answered = new Promise<RelayAnswer | null>((resolve) => {
      this.#relays.set(id, resolve)
      setTimeout(() => resolve(null), timeoutMs)
    })
    send(device, { type: 'sign_in', id, step })
    try {
      return await answered
    } finally {
      this.#relays.delete(id)
    }
  }

  /**
   * Has a ready device make the call, or returns its stored result when this id has one. Null
   * when no device can take it or none answered in time: the caller treats that as "offline"
   * (a booking's outcome is then unknown and verified later, never retried under the same id).
   */
  async perform<C extends WorkCall>(id: string, call: C, timeoutMs = WORK_TIMEOUT_MS): Promise<WorkResult<C> | null> {
    const [existing] = this.ctx.storage.sql
      .exec<{ result: string | null; closed_at: number | null }>('select result, closed_at from work where id = ?', id)
      .toArray()
    if (existing?.result) return JSON.parse(existing.result) as WorkResult<C>
    if (existing?.closed_at) return null
    const [device] = this.#readySockets()
    if (!device) return null
    const now = Date.now()
    if (!existing) this.ctx.storage.sql.exec('insert into work (id, call, created_at) values (?, ?, ?)', id, JSON.stringify(call), now)
    const answered = new Promise<WorkResult | null>((resolve) => {
      this.#waiters.set(id, resolve)
      setTimeout(() => resolve(null), timeoutMs)
    })
    send(device, { type: 'work', id, call })
    const result = await answered
    this.#waiters.delete(id)
    // No answer in time: the item is closed, so it is never sent again (a late result is still stored).
    if (result === null) this.ctx.storage.sql.exec('update work set closed_at = ? where id = ? and result is null', Date.now(), id)
    this.#prune(now)
    return result as WorkResult<C> | null
  }

  /** A revoked device is disconnected at once. */
  async disconnect(deviceId: string): Promise<void> {
    const closing = this.ctx.getWebSockets(deviceId)
    for (const ws of closing) ws.close(REVOKED_CLOSE_CODE, 'This device was revoked.')
    if (closing.length > 0) await this.#left(null)
  }

  #sockets(): WebSocket[] {
    return this.ctx.getWebSockets().filter((ws) => ws.readyState === WebSocket.OPEN)
  }

  /** Sockets whose device said hello with a working platform account, newest first. */
  #readySockets(): WebSocket[] {
    return this.#sockets()
      .map((ws) => ({ ws, a: ws.deserializeAttachment() as Attachment }))
      .filter(({ a }) => a.platform?.connected === true)
      .sort((x, y) => y.a.connectedAt - x.a.connectedAt)
      .map(({ ws }) => ws)
  }

  /** Sockets whose device can sign in for its user, newest first. */
  #relaySockets(): WebSocket[] {
    return this.#sockets()
      .map((ws) => ({ ws, a: ws.deserializeAttachment() as Attachment }))
      .filter(({ a }) => a.platform !== null && a.relay === true)
      .sort((x, y) => y.a.connectedAt - x.a.connectedAt)
      .map(({ ws }) => ws)
  }

  #openItems() {
    return this.ctx.storage.sql
      .exec<{ id: string; call: string }>('select id, call from work where result is null and closed_at is null')
      .toArray()
  }

  /** Results are kept a day: long enough for any retry of the same id. */
  #prune(now: number) {
    this.ctx.storage.sql.exec('delete from work where created_at < ?', now - 24 * 60 * 60 * 1000)
  }

  #offlineSince(): number | null {
    const value = this.#meta('offline_since')
    return value ? Number(value) : null
  }

  #userId(): string {
    return this.#meta('user_id') ?? ''
  }

  #meta(key: string): string | null {
    const [row] = this.ctx.storage.sql.exec<{ value: string }>('select value from meta where key = ?', key).toArray()
    return row && row.value !== '' ? row.value : null
  }

  #setMeta(key: string, value: string) {
    this.ctx.storage.sql.exec(
      'insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value',
      key,
      value,
    )
  }
}

function send(ws: WebSocket, message: ServiceMessage) {
  try {
    ws.send(JSON.stringify(message))
  } catch {
    // The socket closed meanwhile: the item is sent again when a device says hello.
  }
}

function parseJson(raw: string | ArrayBuffer): unknown {
  try {
    return JSON.parse(typeof raw === 'string' ? raw : new TextDecoder().decode(raw))
  } catch {
    return null
  }
}
