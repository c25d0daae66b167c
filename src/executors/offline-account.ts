// The offline executor: the user books from a paired device, none is connected, and they did not
// turn on the cloud fallback. Nothing is booked or checked in the cloud in the device's place;
// only verification still looks, since a booking the device made before it left must be found.
import type { AccountContext, AccountExecutor } from './account-executor'
import { reservationsViaDevice } from './device-account'

export function offlineAccount(c: AccountContext): AccountExecutor {
  return {
    everPaired: c.everPaired,
    // Watching waits while no device is connected.
    watchPlace: async () => ({ kind: 'blocked', state: 'device_offline' }),
    readForOffer: async () => ({ kind: 'unavailable', detail: 'the paired device is offline' }),
    // Nothing was sent, so nothing can have been booked; `unknown` still has it verified.
    book: async () => ({ outcome: { kind: 'unknown', detail: 'the paired device did not answer' }, reconnectNotice: null }),
    reservations: (workId) => reservationsViaDevice(c, workId),
  }
}
