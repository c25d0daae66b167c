// The device executor: the user's paired device makes the calls with its own token,
// which never leaves it. Each call is a work item with an id; the device object stores each
// item's result, so asking again with the same id returns that result instead of calling again.
import type { WorkCall, WorkResult } from '../platform/device-protocol'
import { deviceObject } from '../runtime/deps'
import type { AccountContext, AccountExecutor, AccountReservations } from './account-executor'
import { accountReservations } from './cloud-account'

const NO_ANSWER = 'the paired device did not answer'

export function deviceAccount(c: AccountContext): AccountExecutor {
  const { userId } = c
  return {
    everPaired: c.everPaired,

    // The user's own availability objects watch, with the device making their calls.
    watchPlace: async () => ({ kind: 'ok', via: userId }),

    async readForOffer({ query, workId, limiterWait }) {
      if ((await limiterWait()) > 0) return { kind: 'busy' }
      const [details, listed] = await Promise.all([
        onDevice(c, `${workId}:details`, { op: 'details', query }),
        onDevice(c, `${workId}:reservations`, { op: 'reservations' }),
      ])
      if (!details || !listed) return { kind: 'unavailable', detail: NO_ANSWER }
      // The device's own sign-in was refused: only the user can fix it, on the device.
      if (details.kind === 'reauth' || listed.kind === 'reauth') {
        return { kind: 'unavailable', detail: 'the platform refused the paired device’s sign-in' }
      }
      return { kind: 'read', details, listed }
    },

    async book({ bookToken, needsCard, workId }) {
      const answer = await onDevice(c, workId, { op: 'book', bookToken, card: needsCard })
      return { outcome: answer ?? { kind: 'unknown', detail: NO_ANSWER }, reconnectNotice: null }
    },

    reservations: (workId) => reservationsViaDevice(c, workId),
  }
}

/**
 * A device's booking is looked for through the device (asked even while it seems offline: it
 * may be back), else with the cloud token if the user has one.
 */
export async function reservationsViaDevice(c: AccountContext, workId: string): Promise<AccountReservations> {
  const viaDevice = await onDevice(c, workId, { op: 'reservations' })
  if (viaDevice?.kind === 'ok') return { kind: 'ok', value: viaDevice.value }
  return accountReservations(c, viaDevice)
}

/** One call through the user's device; null when no device took it or none answered in time. */
function onDevice<C extends WorkCall>({ deps, userId }: AccountContext, id: string, call: C): Promise<WorkResult<C> | null> {
  return deviceObject(deps.env, userId).perform(id, call) as Promise<WorkResult<C> | null>
}
