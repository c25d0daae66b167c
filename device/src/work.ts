// The device's half of a work item: one platform call with the user's own platform token, made
// by the same client as the worker's (src/platform/client.ts). Platform-neutral (no Node APIs),
// so the service's tests can run it in workerd against the sandbox too.
import type { Platform } from '../../src/platform/api'
import type { WorkCall, WorkResult } from '../../src/platform/device-protocol'

/**
 * The browser User-Agent a device sends unless configured otherwise: desktop Chrome on Linux (a
 * laptop, a home server, a Raspberry Pi), so the platform sees the user's own kind of client.
 */
export const DEVICE_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/153.0.0.0 Safari/537.36'

/** The device's sign-in on the platform: kept only on the device. */
export interface DeviceSession {
  authToken: string
  paymentMethodId: number | null
  displayName: string
}

export async function performCall(platform: Platform, session: DeviceSession | null, call: WorkCall): Promise<WorkResult> {
  switch (call.op) {
    case 'find':
      return platform.findSlots(call.query)
    case 'details':
      return session ? platform.bookingDetails(session.authToken, call.query) : { kind: 'reauth' }
    case 'reservations':
      return session ? platform.listReservations(session.authToken) : { kind: 'reauth' }
    case 'book':
      // Exactly one attempt (the client never retries a book).
      return session
        ? platform.book(session.authToken, { bookToken: call.bookToken, paymentMethodId: session.paymentMethodId })
        : { kind: 'reauth' }
  }
}
