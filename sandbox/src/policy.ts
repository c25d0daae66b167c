// A policy's meaning in time, shared by the wire (what the platform states) and by safety checks
// that judge a booking against it.
import { instantOf } from './clock'
import type { Policy } from './model'

const HOUR_MS = 3_600_000

/**
 * When free cancellation ends: `cutoffHours` before the table's time, or before `cutoffTime` on
 * the service day when the policy names one. Null when cancelling never refunds (prepaid,
 * ticketed) and for a free table (cancelling is always free).
 */
export function freeCancellationDeadline(policy: Policy, slot: { day: string; time: string }, zone: string): number | null {
  if (policy.kind === 'fee') return instantOf(slot.day, policy.cutoffTime ?? slot.time, zone) - policy.cutoffHours * HOUR_MS
  if (policy.kind === 'deposit') return instantOf(slot.day, slot.time, zone) - policy.cutoffHours * HOUR_MS
  return null
}
