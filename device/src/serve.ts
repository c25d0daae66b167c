// One connected socket, seen from the device: say hello, acknowledge each work item at once,
// answer it through the journal, and forget it once the service has stored the result.
// Platform-neutral: Node's WebSocket on a device, workerd's in the service's tests.
import type { DevicePlatformFacts, ServiceMessage, WorkCall, WorkResult } from '../../src/platform/device-protocol'
import type { Journal } from './journal'

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
}

export function serve(ws: SocketLike, options: ServeOptions): void {
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
    if (message.type !== 'work') return
    const { id, call } = message
    send({ type: 'ack', id })
    options.onWork?.(id, call)
    void options.journal
      .answer(id, call, options.perform)
      .then((result) => send({ type: 'result', id, result }))
      .catch((err: unknown) => console.error(`tablewatch: work ${id} failed:`, err instanceof Error ? err.message : String(err)))
  })
  send({ type: 'hello', platform: options.platform(), version: options.version })
  for (const [id, result] of options.journal.answered()) send({ type: 'result', id, result })
}

function parse(data: unknown): ServiceMessage | null {
  try {
    return JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer)) as ServiceMessage
  } catch {
    return null
  }
}
