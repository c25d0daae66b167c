// The simulated world: a clean sandbox world of this project's own, every seeded venue in the
// service's catalog, and users, each with a token and a connected platform account.
import { env } from 'cloudflare:test'
import { type SandboxControl, type SandboxVenueView, sandboxControl } from '../../../sandbox/control-client'
import { createAccessToken } from '../../../src/auth/pat'
import { users } from '../../../src/db/schema'
import { connectPlatform } from '../../../src/executors/connection'
import { answerSignInChallenge, checkSignInCode, sendSignInCode } from '../../../src/executors/platform-sign-in'
import { type Deps, depsOf } from '../../../src/runtime/deps'
import { findRestaurants } from '../../../src/venues/restaurants'
import type { DeviceFleet } from './devices'
import type { Lapses } from './lapses'
import { mapLimit, type Rng } from './random'

/** How long the sandbox's auth tokens live in a simulated world. */
export const TOKEN_SECONDS = 15
/** Refresh tokens outlive the run. */
export const REFRESH_SECONDS = 86_400

export interface SimUser {
  userId: string
  token: string
  /** The platform account: the sandbox ledger names bookings by it. */
  email: string
  /** Where the simulated user chose to book; the service must never change it by itself. */
  execution: 'cloud' | 'user_device'
  /** The account has no password: it was connected by the code texted to its phone. */
  codeOnly: boolean
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
  await control.setTokenLifetimes({ authSeconds: TOKEN_SECONDS, refreshSeconds: REFRESH_SECONDS })
  // Code sign-ins here carry a refresh token in the body (one of the two wire forms): their
  // sessions renew like the others over the run; sessions that end are another test's.
  await control.setSignInSettings({ codeSessionRefresh: 'body', datacenter: null })
  const venues = await control.venues()
  const deps = depsOf(env)
  // Searching by name adds each venue (zone, release rule) to the catalog from the platform.
  await mapLimit(venues, 4, (v) => findRestaurants(deps, v.name))
  // Some accounts hold no card: the platform refuses fee-holding tables for them (402).
  const plans = Array.from({ length: userCount }, (_, i) => ({ i, card: !rng.chance(0.15), codeOnly: rng.chance(0.25) }))
  const created = await mapLimit(plans, 4, async ({ i, card, codeOnly }) => {
    const userId = `usr_sim${run}u${i}`
    const email = `diner${i}${card ? '' : '.nocard'}.${run}@sim.example`
    await deps.db.insert(users).values({ id: userId, email: `${userId}@example.test`, createdAt: Date.now() })
    const { token } = await createAccessToken(deps.db, {
      userId,
      name: 'simulation',
      scopes: ['restaurants:read', 'requests:read', 'requests:write', 'reservations:read'],
    })
    const device = devices !== null && i % 2 === 0
    // Accounts without a password (most, on the platform) connect by code; devices sign in with a password.
    // A lapsing user's account has no password either: its code sign-in gives no refresh token (lapses.ts).
    const lapsing = lapses?.lapses(i) ?? false
    const byCode = codeOnly && !device && !lapsing
    if (lapsing) await lapses?.add(control, userId, email, i)
    else if (byCode) await connectByCode(deps, control, userId, email, card, `+1917${String(i).padStart(7, '0')}`)
    else if (!device || i % 4 === 0) await connectPlatform(deps, userId, { email, password: 'simulated', acknowledgedRisk: true })
    if (device) await devices.add(deps, userId, email)
    return { userId, token, email, execution: device ? ('user_device' as const) : ('cloud' as const), codeOnly: byCode || lapsing }
  })
  return { control, venues, users: created }
}

/** A code-only account, connected as a diner connects it: the number, the texted code, the email if asked. */
async function connectByCode(deps: Deps, control: SandboxControl, userId: string, email: string, card: boolean, mobileNumber: string) {
  await control.createAccount({ email, password: null, mobileNumber, card, challenge: Number(mobileNumber.slice(-1)) % 2 === 0 })
  const sent = await sendSignInCode(deps, userId, { mobileNumber, via: 'cloud' })
  if (sent.kind !== 'code_sent') throw new Error(`code sign-in of ${email}: ${JSON.stringify(sent)}`)
  const code = await control.lastCode(mobileNumber)
  let step = await checkSignInCode(deps, userId, { code: code ?? 'none' })
  if (step.kind === 'challenge') step = await answerSignInChallenge(deps, userId, { email })
  if (step.kind !== 'connected') throw new Error(`code sign-in of ${email}: ${JSON.stringify(step)}`)
}
