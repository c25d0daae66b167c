// The simulated world: a clean sandbox world of this project's own, every seeded venue in the
// service's catalog, and users, each with a token and a connected platform account.
import { env } from 'cloudflare:test'
import { type SandboxControl, type SandboxVenueView, sandboxControl } from '../../../sandbox/control-client'
import { createAccessToken } from '../../../src/auth/pat'
import { users } from '../../../src/db/schema'
import { connectPlatform } from '../../../src/executors/connection'
import { depsOf } from '../../../src/runtime/deps'
import { findRestaurants } from '../../../src/venues/restaurants'
import type { DeviceFleet } from './devices'
import type { Lapses } from './lapses'
import { mapLimit, type Rng } from './random'

/** How long the sandbox's auth tokens live in a simulated world. */
export const TOKEN_SECONDS = 15

export interface SimUser {
  userId: string
  token: string
  /** The platform account: the sandbox ledger names bookings by it. */
  email: string
}

export interface World {
  control: SandboxControl
  venues: SandboxVenueView[]
  users: SimUser[]
}

export function controlOf(): SandboxControl {
  if (!env.PLATFORM) throw new Error('PLATFORM must be bound to the sandbox worker')
  return sandboxControl({ fetcher: env.PLATFORM, baseUrl: env.PLATFORM_BASE_URL })
}

/**
 * `devices`: every other user books from a paired device (test/simulation/sim/devices.ts); half
 * of those also keep the cloud connection (verification may then use it), half never connect it.
 */
export async function setUpWorld(
  rng: Rng,
  run: string,
  userCount: number,
  devices: DeviceFleet | null = null,
  lapses: Lapses | null = null,
): Promise<World> {
  const control = controlOf()
  await control.reset()
  // Tokens expire during the run: the service renews them with the refresh token (and some calls
  // meet an expired one first). Refresh tokens outlive the run.
  await control.setTokenLifetimes({ authSeconds: TOKEN_SECONDS, refreshSeconds: 86_400 })
  const venues = await control.venues()
  const deps = depsOf(env)
  // Searching by name adds each venue (zone, release rule) to the catalog from the platform.
  await mapLimit(venues, 4, (v) => findRestaurants(deps, v.name))
  // Some accounts hold no card: the platform refuses fee-holding tables for them (402).
  const plans = Array.from({ length: userCount }, (_, i) => ({ i, card: !rng.chance(0.15) }))
  const created = await mapLimit(plans, 4, async ({ i, card }) => {
    const userId = `usr_sim${run}u${i}`
    const email = `diner${i}${card ? '' : '.nocard'}.${run}@sim.example`
    await deps.db.insert(users).values({ id: userId, email: `${userId}@example.test`, createdAt: Date.now() })
    const { token } = await createAccessToken(deps.db, {
      userId,
      name: 'simulation',
      scopes: ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'],
    })
    const device = devices !== null && i % 2 === 0
    // A lapsing user's account has no password: it signs in by code once the world is set up (lapses.ts).
    if (lapses?.lapses(i)) await lapses.add(control, userId, email, i)
    else if (!device || i % 4 === 0) await connectPlatform(deps, userId, { email, password: 'simulated', acknowledgedRisk: true })
    if (device) await devices.add(deps, userId, email)
    return { userId, token, email }
  })
  return { control, venues, users: created }
}
