// "Also revoke" on the password change and "sign out everywhere": after a
// suspected compromise the owner can end, besides sessions, every personal access token, every
// connected assistant (OAuth grant), every paired device and the calendar feed's secret URL. Each
// goes through the same use case as its own button, so requests created through a token or grant
// are revoked with it and a device's revocation pauses what needed it.
import { listGrants } from '../auth/oauth-grants'
import { listAccessTokens } from '../auth/pat'
import { calendarFeedOfUser } from '../db/calendar-feeds'
import { devicesOverview, revokeDevice } from '../devices/device-settings'
import { resetCalendarFeed } from '../reservations/calendar'
import type { Deps } from '../runtime/deps'
import { revokeAccessToken, revokeGrant } from './revoke'

const ACCESS_KINDS = ['tokens', 'grants', 'devices', 'calendar'] as const
export type AccessKind = (typeof ACCESS_KINDS)[number]

/** Every kind: what a password reset ends, besides sessions. */
export const EVERY_ACCESS_KIND: ReadonlySet<AccessKind> = new Set(ACCESS_KINDS)

export async function revokeAccess(deps: Deps, userId: string, kinds: ReadonlySet<AccessKind>): Promise<void> {
  if (kinds.has('tokens')) {
    for (const token of await listAccessTokens(deps.db, userId))
      if (token.revokedAt === null) await revokeAccessToken(deps, userId, token.id)
  }
  if (kinds.has('grants')) {
    for (const grant of await listGrants(deps.env, userId)) await revokeGrant(deps, userId, grant.id)
  }
  if (kinds.has('devices')) {
    for (const device of (await devicesOverview(deps, userId)).devices) if (!device.revoked) await revokeDevice(deps, userId, device.id)
  }
  // A new secret nobody is shown: the old feed URL stops working; Settings can make a new one.
  if (kinds.has('calendar') && (await calendarFeedOfUser(deps.db, userId))) await resetCalendarFeed(deps, userId)
}

/** The kinds ticked on a form (`also_revoke` checkboxes); anything else is ignored. */
export function ticked(value: unknown): Set<AccessKind> {
  const values = [value].flat().filter((v): v is string => typeof v === 'string')
  return new Set(ACCESS_KINDS.filter((kind) => values.includes(kind)))
}
