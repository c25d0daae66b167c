// What the settings page says about where the user's platform account may be used from: the
// calls the platform refused from the cloud (cloud-refusals.ts), whether a paired device can sign
// in instead, and the sign-in under way (platform-sign-in.ts).
import { cloudRefusalsOf, type RefusedCall } from '../db/cloud-refusals'
import type { Deps } from '../runtime/deps'
import { BOOKING_CALLS } from './cloud-refusals'
import { signInUnderWay } from './platform-sign-in'
import type { PendingSignIn } from './platform-sign-in-pending'

export interface PlatformAccess {
  /** The account calls refused from the cloud, with when last. */
  refused: { call: RefusedCall; lastAt: number }[]
  /** Signing in (or renewing the session) from the cloud was refused: the device is the way. */
  signInRefused: boolean
  /** A call booking needs was refused from the cloud: booking from the device is the way. */
  bookingRefused: boolean
  underWay: Pick<PendingSignIn, 'step' | 'via' | 'numberHint'> | null
}

export async function platformAccessOf(deps: Deps, userId: string): Promise<PlatformAccess> {
  const [rows, underWay] = await Promise.all([cloudRefusalsOf(deps.db, userId), signInUnderWay(deps, userId)])
  const refused = rows.map((r) => ({ call: r.call, lastAt: r.lastAt }))
  return {
    refused,
    signInRefused: refused.some((r) => r.call === 'sign_in' || r.call === 'refresh'),
    bookingRefused: refused.some((r) => BOOKING_CALLS.includes(r.call)),
    underWay,
  }
}
