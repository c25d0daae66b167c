// One connected socket, seen from the device: say hello, acknowledge each work item at once,
// answer it through the journal, and forget it once the service has stored the result.
// Platform-neutral: Node's WebSocket on a device, workerd's in the service's tests.
import type { DevicePlatformFacts, ServiceMessage, WorkCall, WorkResult } from '../../src/platform/device-protocol'
import { RelayStep } from '../../src/platform/sign-in-relay'
import type { Journal } from './journal'
import type { SignInRelay } from './relay'

/** The part of a WebSocket this needs (Node's global WebSocket and workerd's both have it). */
export interface SocketLike {
  send(data: string): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
}

export interface ServeOptions {
  journal: Journal
  platform: () => DevicePlatformFacts
  perform: (call: WorkCall) => Promise<WorkResult>
  version: string
  /** Called for each item as it arrives (logging, tests). */
  onWork?: (id: string, call: WorkCall) => void
  /** Makes the platform sign-ins the service relays (absent: this device has no platform settings). Never journaled. */
  relay?: SignInRelay
  /** Called for each sign-in step as it arrives (logging: the step's name only, never its values). */
  onSignIn?: (id: string, step: RelayStep['step']) => void
}

/** The connection as the device uses it after the hello: say hello again when the platform account changed. */
export interface Served {
  hello(): void
}

export function serve(ws: SocketLike, options: ServeOptions): Served {
  const send = (message: object) => {
    try {
      ws.send(JSON.stringify(message))
    } catch {
      // Closed meanwhile: the journal keeps the result for the next connection.
    }
  }
  ws.addEventListener('message', (event) => {
    const message = parse(event.data)
    if (!message) return
    if (message.type === 'stored') options.journal.forget(message.id)
    if (message.type === 'error') console.error(`tablewatch: ${message.message}`)
    if (message.type === 'sign_in') return signIn(message.id, message.step)
    if (message.type !== 'work') return
    const { id, call } = message
    send({ type: 'ack', id })
    options.onWork?.(id, call)
    void options.journal
      .answer(id, call, options.perform)
      .then((result) => send({ type: 'result', id, result }))
      .catch((err: unknown) => console.error(`tablewatch: work ${id} failed:`, err instanceof Error ? err.message : String(err)))
  })
  // A sign-in step is a person waiting on a page: answered at once, never kept (the page asks again).
  const signIn = (id: string, raw: unknown) => {
    const step = RelayStep.safeParse(raw)
    const relay = options.relay
    if (!step.success || !relay) {
      send({
        type: 'signed',
        id,
        answer: { kind: 'unavailable', detail: relay ? 'unreadable step' : 'no platform settings on this device' },
      })
      return
    }
    options.onSignIn?.(id, step.data.step)
    void relay
      .answer(step.data)
      .catch((err: unknown) => ({ kind: 'unavailable' as const, detail: err instanceof Error ? err.message.slice(0, 200) : 'failed' }))
      .then((answer) => send({ type: 'signed', id, answer }))
  }
  const hello = () => send({ type: 'hello', platform: options.platform(), version: options.version, relay: options.relay !== undefined })
  hello()
  for (const [id, result] of options.journal.answered()) send({ type: 'result', id, result })
  return { hello }
}

function parse(data: unknown): ServiceMessage | null {
  try {
    return JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer)) as ServiceMessage
  } catch {
    return null
  }
}
