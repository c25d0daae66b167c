// Keeps the device connected: a WebSocket to the service with the device credential, answered
// by serve(); when it drops, it connects again after 1 s, 2 s, 4 s … up to a minute (with
// jitter), and the journal answers whatever the service sends again. A revoked device stops.
import { REVOKED_CLOSE_CODE } from '../../src/platform/device-protocol'
import type { Journal } from './journal'
import { type Served, type ServeOptions, serve } from './serve'

export interface LinkOptions extends Omit<ServeOptions, 'journal'> {
  service: string
  credential: string
  journal: Journal
  log: (line: string) => void
  /** The connection of the moment, after each (re)connect: to say hello again when the platform account changed. */
  onServed?: (served: Served) => void
}

const MAX_BACKOFF_MS = 60_000

export function keepConnected(options: LinkOptions): Promise<'revoked'> {
  const url = `${options.service.replace(/^http/, 'ws')}/device/v1/connect`
  let failures = 0
  return new Promise((resolve) => {
    const attempt = () => {
      const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${options.credential}` } })
      let opened = false
      ws.addEventListener('open', () => {
        opened = true
        failures = 0
        options.log('connected')
        options.onServed?.(serve(ws, options))
      })
      ws.addEventListener('close', async (event) => {
        // A refused handshake says nothing about why: ask over plain HTTP whether the credential still works.
        if (event.code === REVOKED_CLOSE_CODE || (!opened && (await refused(options)))) {
          options.log('this device was revoked in Settings (or its credential is not valid): pair it again to use it')
          resolve('revoked')
          return
        }
        failures = opened ? 1 : failures + 1
        const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1)) * (0.8 + Math.random() * 0.4)
        options.log(`disconnected (${event.code || 'no answer'}); trying again in ${Math.round(wait / 1000)} s`)
        setTimeout(attempt, wait)
      })
      ws.addEventListener('error', () => {
        // The close event follows and schedules the next attempt.
      })
    }
    attempt()
  })
}

async function refused(options: LinkOptions): Promise<boolean> {
  try {
    const res = await fetch(`${options.service}/device/v1/connect`, { headers: { Authorization: `Bearer ${options.credential}` } })
    return res.status === 401
  } catch {
    return false // the service is not reachable: try again later
  }
}
