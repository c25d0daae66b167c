// /__sandbox/…: the control API for tests, the benchmark and the demo. Answers 404 (as if it did
// not exist) unless the sandbox runs with SANDBOX_CONTROL = "on".
import { Hono } from 'hono'
import { z } from 'zod'
import type { SandboxEnv } from '../env'
import {
  accountSchema,
  addSlotSchema,
  blockSchema,
  calendarLagSchema,
  cdnRateSchema,
  faultSchema,
  historySchema,
  invalidateSchema,
  releaseClockSchema,
  releaseRuleSchema,
  setPolicySchema,
  signInSettingsInput,
  slotKeySchema,
  tokenLifetimesSchema,
} from '../schemas'
import { VENUES } from '../venues'
import { worldOf } from './common'
import { phonePage } from './phone'

export const controlRoutes = new Hono<{ Bindings: SandboxEnv }>()

controlRoutes.use('*', async (c, next) => {
  if (c.env.SANDBOX_CONTROL !== 'on') return c.json({ status: 404, message: 'Not Found' }, 404)
  await next()
})

controlRoutes.onError((err, c) => {
  if (err instanceof z.ZodError) return c.json({ error: 'invalid control request', issues: err.issues }, 400)
  throw err
})

controlRoutes.post('/reset', async (c) => {
  await worldOf(c).reset()
  return c.json({ ok: true })
})

controlRoutes.get('/venues', (c) => c.json({ venues: VENUES }))

controlRoutes.get('/slots', async (c) => {
  const q = z
    .object({ venue_id: z.coerce.number().int(), day: z.string(), party_size: z.coerce.number().int().optional() })
    .parse(c.req.query())
  return c.json({ slots: (await worldOf(c).offered(q.venue_id, q.day, q.party_size ?? null))?.slots ?? [] })
})

controlRoutes.post('/slots', async (c) => {
  const added = await worldOf(c).addSlot(addSlotSchema.parse(await c.req.json()))
  return c.json({ added }, added ? 200 : 404)
})

controlRoutes.post('/slots/remove', async (c) => {
  return c.json({ removed: await worldOf(c).removeSlot(slotKeySchema.parse(await c.req.json())) })
})

controlRoutes.post('/slots/policy', async (c) => {
  const changed = await worldOf(c).setPolicy(setPolicySchema.parse(await c.req.json()))
  return c.json({ changed }, changed ? 200 : 404)
})

controlRoutes.post('/history', async (c) => {
  return c.json({ reservationId: await worldOf(c).addHistory(historySchema.parse(await c.req.json())) })
})

controlRoutes.post('/faults', async (c) => {
  await worldOf(c).injectFault(faultSchema.parse(await c.req.json()))
  return c.json({ ok: true })
})

controlRoutes.post('/token-lifetimes', async (c) => {
  await worldOf(c).setTokenLifetimes(tokenLifetimesSchema.parse(await c.req.json()))
  return c.json({ ok: true })
})

controlRoutes.post('/block', async (c) => {
  await worldOf(c).block(blockSchema.parse(await c.req.json()))
  return c.json({ ok: true })
})

// The release contest (store/release-rules.ts): a venue's own release rule in this world, and the world's release clock.
controlRoutes.post('/release-rules', async (c) => {
  const { venueId, rule } = releaseRuleSchema.parse(await c.req.json())
  const set = await worldOf(c).setReleaseRule(venueId, rule)
  return c.json({ set }, set ? 200 : 404)
})

controlRoutes.post('/release-clock', async (c) => {
  await worldOf(c).setReleaseClock(releaseClockSchema.parse(await c.req.json()).clock)
  return c.json({ ok: true })
})

controlRoutes.post('/calendar-lag', async (c) => {
  await worldOf(c).setCalendarLag(calendarLagSchema.parse(await c.req.json()).lagMs)
  return c.json({ ok: true })
})

controlRoutes.post('/cdn-rate', async (c) => {
  await worldOf(c).setCdnRate(cdnRateSchema.parse(await c.req.json()))
  return c.json({ ok: true })
})

controlRoutes.get('/calls', async (c) => c.json({ calls: await worldOf(c).calls() }))

/** Every call by the second it arrived, since `since` (epoch ms): the platform's view of how calls bunch. */
controlRoutes.get('/calls/per-second', async (c) => {
  const { since, client } = z.object({ since: z.coerce.number().int().min(0), client: z.string().optional() }).parse(c.req.query())
  return c.json({ perSecond: await worldOf(c).callsPerSecond(since, client) })
})

controlRoutes.get('/ledger', async (c) => c.json({ bookings: await worldOf(c).ledger() }))

controlRoutes.post('/accounts/invalidate', async (c) => {
  const { email } = invalidateSchema.parse(await c.req.json())
  return c.json({ invalidated: await worldOf(c).invalidateTokens(email) })
})

controlRoutes.post('/tokens/expire', async (c) => c.json({ expired: await worldOf(c).expireAuthTokens() }))

/** An account with a set password, or none (code sign-in only), and maybe a mobile number. */
controlRoutes.post('/accounts', async (c) => {
  const account = await worldOf(c).createAccount(accountSchema.parse(await c.req.json()))
  return c.json({ account })
})

/** The world's sign-in settings (schemas.ts signInSettingsSchema): those named change, the rest stay. */
controlRoutes.get('/sign-in', async (c) => c.json({ settings: await worldOf(c).signInSettings() }))
controlRoutes.post('/sign-in', async (c) => {
  const body = await c.req.json()
  signInSettingsInput.parse(body)
  return c.json({ settings: await worldOf(c).setSignInSettings(body) })
})

const numberQuery = z.object({
  number: z
    .string()
    .regex(/^\+[1-9]\d{7,14}$/)
    .optional(),
})

/** The texts the world's phone received (the codes of code sign-ins), newest first, as JSON. */
controlRoutes.get('/phone/texts', async (c) => {
  const { number } = numberQuery.parse(c.req.query())
  return c.json({ texts: await worldOf(c).texts(number ?? null) })
})

/** The same, as a page a person reads, like the service's outbox. */
controlRoutes.get('/phone', async (c) => {
  const { number } = numberQuery.parse(c.req.query())
  return c.html(phonePage(await worldOf(c).texts(number ?? null), Date.now()))
})

controlRoutes.post('/demo/tick', async (c) => c.json(await worldOf(c).demoTick()))
