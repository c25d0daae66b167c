// A typed client for the sandbox control API (/__sandbox/…), for tests and the benchmark.
// `fetcher` is the PLATFORM service binding inside workerd, or `globalThis` from Node; `baseUrl`
// picks the sandbox world (one per host name), so use the same base URL as the platform client.
import { z } from 'zod'
import type {
  AccountInput,
  AddSlotInput,
  BlockInput,
  CdnRateInput,
  Endpoint,
  FaultInput,
  HistoryInput,
  ReleaseRuleInput,
  SignInSettingsInput,
  SlotKeyInput,
  TokenLifetimes,
} from './src/schemas'
import { ACCOUNT_CALLS, ENDPOINTS, PASSWORD_PATHS, policySchema } from './src/schemas'

export { MUST_NOT_BOOK_RULES } from './src/model'
export { cancellationFeeFor, chargedAtBooking, freeCancellationDeadline } from './src/policy'
export { TERMS_GAPS } from './src/schemas'
export type { AccountInput, AddSlotInput, BlockInput, CdnRateInput, Endpoint, FaultInput, HistoryInput, SignInSettingsInput, SlotKeyInput }
export type Policy = z.infer<typeof policySchema>

const slotSchema = z.object({
  venueId: z.number(),
  day: z.string(),
  time: z.string(),
  seating: z.string(),
  partyMin: z.number(),
  partyMax: z.number(),
  policy: policySchema,
})
export type SandboxSlotView = z.infer<typeof slotSchema>

const bookingSchema = slotSchema.omit({ partyMin: true, partyMax: true }).extend({
  reservationId: z.number(),
  email: z.string(),
  partySize: z.number(),
  paymentMethodId: z.number().nullable(),
  bookedAt: z.number(),
  /** The User-Agent of the book call: which client booked. */
  client: z.string(),
})
export type LedgerEntry = z.infer<typeof bookingSchema>

const venueSchema = z.object({
  id: z.number(),
  name: z.string(),
  city: z.string(),
  neighborhood: z.string(),
  zone: z.string(),
  wireZone: z.string(),
  seatings: z.array(z.string()),
  policies: z.record(z.string(), policySchema),
  release: z.object({ days: z.number(), time: z.string() }).nullable(),
  closedWeekday: z.number().nullable(),
  bookingRule: z
    .enum(['recaptcha', 'tock', 'card_on_file', 'gda_concierge', 'reservation_transfers', 'other_platform', 'reopens_later'])
    .nullable(),
  reopenDate: z.string().nullable().optional(),
  sharedTokens: z.boolean().optional(),
})
export type SandboxVenueView = z.infer<typeof venueSchema>

const accountSchema = z.object({
  email: z.string(),
  userId: z.number(),
  paymentMethodId: z.number().nullable(),
  mobileNumber: z.string().nullable(),
  hasPassword: z.boolean(),
  challenge: z.boolean(),
})
export type SandboxAccountView = z.infer<typeof accountSchema>

const settingsSchema = z.object({
  passwordPaths: z.array(z.enum(PASSWORD_PATHS)),
  codeTtlSeconds: z.number(),
  codeTries: z.number(),
  codeSendsPerWindow: z.number(),
  captcha: z.boolean(),
  codeSessionRefresh: z.enum(['none', 'body']),
  passwordSessionRefresh: z.enum(['cookie', 'body']),
  noPasswordSaysSo: z.boolean(),
  datacenter: z.object({ refuse: z.array(z.enum(ACCOUNT_CALLS)), homeAddresses: z.array(z.string()) }).nullable(),
  cdnCookiesRequired: z.boolean(),
})
export type SandboxSignInSettings = z.infer<typeof settingsSchema>

const textSchema = z.object({ mobileNumber: z.string(), body: z.string(), sentAt: z.number() })
export type SandboxText = z.infer<typeof textSchema>

/** The code in a text of the sandbox's phone ("123456 is your Resy verification code…"), or null. */
export const codeIn = (text: SandboxText | undefined): string | null => /\b(\d{6})\b/.exec(text?.body ?? '')?.[1] ?? null

const callsSchema = z.object({ calls: z.partialRecord(z.enum(ENDPOINTS), z.number()) })

export interface ControlOptions {
  fetcher: { fetch(request: Request): Promise<Response> }
  baseUrl: string
}

export class SandboxControlError extends Error {
  constructor(
    readonly status: number,
    path: string,
  ) {
    super(`sandbox control ${path} answered ${status}`)
  }
}

export function sandboxControl({ fetcher, baseUrl }: ControlOptions) {
  const base = baseUrl.replace(/\/+$/, '')

  async function call<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: S,
    body?: unknown,
    okStatuses = [200],
  ): Promise<z.output<S>> {
    const init: RequestInit = { method }
    if (body !== undefined) {
      init.body = JSON.stringify(body)
      init.headers = { 'Content-Type': 'application/json' }
    }
    const res = await fetcher.fetch(new Request(`${base}/__sandbox${path}`, init))
    if (!okStatuses.includes(res.status)) throw new SandboxControlError(res.status, path)
    return schema.parse(await res.json())
  }

  const flag = <K extends string>(key: K) => z.object({ [key]: z.boolean() } as Record<K, z.ZodBoolean>)

  return {
    /** Back to the seeded world: no accounts, bookings, added/removed slots, faults or counts. */
    reset: () => call('POST', '/reset', z.object({ ok: z.boolean() })).then(() => undefined),
    venues: () => call('GET', '/venues', z.object({ venues: z.array(venueSchema) })).then((r) => r.venues),
    /** Slots offered right now (released, not past, not taken), for any party unless given. */
    slots: (venueId: number, day: string, partySize?: number) => {
      const q = new URLSearchParams({ venue_id: String(venueId), day })
      if (partySize !== undefined) q.set('party_size', String(partySize))
      return call('GET', `/slots?${q}`, z.object({ slots: z.array(slotSchema) })).then((r) => r.slots)
    },
    /** Adds (or replaces) a slot; false for an unknown venue. */
    addSlot: (slot: AddSlotInput) => call('POST', '/slots', flag('added'), slot, [200, 404]).then((r) => r.added),
    removeSlot: (key: SlotKeyInput) => call('POST', '/slots/remove', flag('removed'), key).then((r) => r.removed),
    /** Changes the fees of an offered slot; false when there is no such slot. */
    setPolicy: (key: SlotKeyInput, policy: Policy) =>
      call('POST', '/slots/policy', flag('changed'), { ...key, policy }, [200, 404]).then((r) => r.changed),
    /** Puts a cancelled or past entry (never a booking) on an account's reservation list; its reservation id. */
    addHistory: (entry: HistoryInput) =>
      call('POST', '/history', z.object({ reservationId: z.number() }), entry).then((r) => r.reservationId),
    injectFault: (fault: FaultInput) => call('POST', '/faults', z.object({ ok: z.boolean() }), fault).then(() => undefined),
    /** The firewall blocks one client (by User-Agent) or, without one, every client, for `forMs` (0 lifts it). */
    block: (block: BlockInput) => call('POST', '/block', z.object({ ok: z.boolean() }), block).then(() => undefined),
    /** The calendar (/4/venue/calendar) answers from the tables' state this long ago (0 by default). */
    setCalendarLag: (lagMs: number) => call('POST', '/calendar-lag', z.object({ ok: z.boolean() }), { lagMs }).then(() => undefined),
    /**
     * The release contest: the venue releases each new day `rule.days` ahead at `rule.time` (its
     * local time), stated in its notes or in no text (`stated`); null restores the seeded rule.
     */
    setReleaseRule: (venueId: number, rule: ReleaseRuleInput['rule']) =>
      call('POST', '/release-rules', flag('set'), { venueId, rule }, [200, 404]).then((r) => r.set),
    /** The release contest: from `epoch` the world's days last `secondsPerDay` real seconds (null: the real clock). */
    setReleaseClock: (clock: { epoch: number; secondsPerDay: number } | null) =>
      call('POST', '/release-clock', z.object({ ok: z.boolean() }), { clock }).then(() => undefined),
    /** Above this many calls in a second from one client, the CDN blocks it (null: no such rule, the default). */
    setCdnRate: (rate: CdnRateInput) => call('POST', '/cdn-rate', z.object({ ok: z.boolean() }), rate).then(() => undefined),
    calls: () => call('GET', '/calls', callsSchema).then((r) => r.calls),
    /** Every call by the second it arrived (epoch s, the sandbox's clock), since `since` (epoch ms); only `client`'s (a User-Agent) when given. */
    callsPerSecond: (since: number, client?: string) =>
      call(
        'GET',
        `/calls/per-second?${new URLSearchParams({ since: String(since), ...(client === undefined ? {} : { client }) })}`,
        z.object({ perSecond: z.array(z.tuple([z.number(), z.number()])) }),
      ).then((r) => r.perSecond),
    ledger: () => call('GET', '/ledger', z.object({ bookings: z.array(bookingSchema) })).then((r) => r.bookings),
    /** Tokens issued from now on live this long (default 45 and 90 days). */
    setTokenLifetimes: (lifetimes: TokenLifetimes) =>
      call('POST', '/token-lifetimes', z.object({ ok: z.boolean() }), lifetimes).then(() => undefined),
    invalidateTokens: (email: string) =>
      call('POST', '/accounts/invalidate', z.object({ invalidated: z.number() }), { email }).then((r) => r.invalidated),
    /** Every live auth token expires now (refresh tokens keep working); how many did. */
    expireAuthTokens: () => call('POST', '/tokens/expire', z.object({ expired: z.number() })).then((r) => r.expired),
    demoTick: () => call('POST', '/demo/tick', z.object({ added: z.number(), removed: z.number() })),
    /** Makes an account (replacing one with that email): a password, or null for code sign-in only. */
    createAccount: (account: AccountInput) =>
      call('POST', '/accounts', z.object({ account: accountSchema }), account).then((r) => r.account),
    signInSettings: () => call('GET', '/sign-in', z.object({ settings: settingsSchema })).then((r) => r.settings),
    /** Changes the sign-in settings named (datacenter mode, /3 removed, code lifetimes …); the rest stay. */
    setSignInSettings: (settings: SignInSettingsInput) =>
      call('POST', '/sign-in', z.object({ settings: settingsSchema }), settings).then((r) => r.settings),
    /** The texts the world's phone received, newest first (one number's, or all). */
    texts: (mobileNumber?: string) =>
      call(
        'GET',
        `/phone/texts${mobileNumber ? `?${new URLSearchParams({ number: mobileNumber })}` : ''}`,
        z.object({ texts: z.array(textSchema) }),
      ).then((r) => r.texts),
    /** The code last texted to the number, or null. */
    lastCode: async (mobileNumber: string) => {
      const { texts } = await call(
        'GET',
        `/phone/texts?${new URLSearchParams({ number: mobileNumber })}`,
        z.object({ texts: z.array(textSchema) }),
      )
      return codeIn(texts[0])
    },
  }
}

export type SandboxControl = ReturnType<typeof sandboxControl>
