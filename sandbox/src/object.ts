// One sandbox "world" (all platform state for one API host name) in a SQLite-backed Durable
// Object. Its RPC methods are the platform's behaviour; index.ts turns HTTP into these calls.
import { DurableObject } from 'cloudflare:workers'
import { demoTick, nextDemoDelayMs } from './demo'
import { isOffered } from './inventory'
import type { ConfigRef, SandboxSlot, SandboxVenue, SlotKey } from './model'
import { type CallOrigin, refusedFromHere } from './network'
import {
  type AccountInput,
  type AddSlotInput,
  addSlotSchema,
  type BlockInput,
  type BlockStyle,
  type CdnRateInput,
  type Endpoint,
  type Fault,
  type FaultInput,
  type HistoryInput,
  type SignInSettings,
  type SignInSettingsInput,
  setPolicySchema,
  slotKeySchema,
  type TokenLifetimes,
} from './schemas'
import {
  accountByToken,
  codeSession,
  createAccount,
  invalidateTokens,
  login,
  type PasswordSignIn,
  refresh,
  type SandboxAccount,
} from './store/accounts'
import { blockOf, setBlock } from './store/blocks'
import { type Booking, type BookResult, book, ledger, listedOf, mintBookToken } from './store/bookings'
import { type CalendarDay, calendarLagOf, calendarOf, setCalendarLag } from './store/calendar'
import { countCall, setCdnRate } from './store/cdn-rate'
import { answerChallenge, type CodeCheck, type CodeRefusal, checkCode, sendCode, type Text, textsOf } from './store/codes'
import { callCounts, callsPerSecond, enter, injectFault } from './store/faults'
import { addHistory, type HistoryEntry, historyOf } from './store/history'
import { releaseTimeOf, setReleaseClock, setReleaseRule, venueIn, type WorldReleaseRule } from './store/release-rules'
import { migrate, wipe } from './store/schema'
import { setSignInSettings, signInSettingsOf } from './store/sign-in-settings'
import { currentSlot, putSlot, setPolicy, slotEverOffered, slotsOn, takeSlot } from './store/slots'
import { expireAuthTokens, type IssuedTokens, setTokenLifetimes } from './store/tokens'
import { venueById } from './venues'

type Authed<T> = { kind: 'unauthorized' } | T
type SignedIn = { kind: 'signed_in'; account: SandboxAccount; tokens: IssuedTokens }

/**
 * The one binding a world reads (sandbox/src/env.ts has them all). Named here, not imported,
 * because env.ts names this class as the WORLDS binding's type: importing it back would close a loop.
 */
interface WorldEnv {
  SANDBOX_DEMO?: string
}

export class SandboxPlatform extends DurableObject<WorldEnv> {
  readonly #sql: SqlStorage
  /** Each client's calls of the last second, for the CDN's rate rule (store/cdn-rate.ts). */
  readonly #recentCalls = new Map<string, number[]>()

  constructor(ctx: DurableObjectState, env: WorldEnv) {
    super(ctx, env)
    this.#sql = ctx.storage.sql
    migrate(this.#sql)
  }

  /** Every platform call starts here: counted (by when it arrived), and maybe given an injected fault. */
  async enter(endpoint: Endpoint, arrivedAt = Date.now(), client = ''): Promise<Fault | null> {
    const fault = enter(this.#sql, endpoint, arrivedAt, client)
    if (this.env.SANDBOX_DEMO === 'on' && (await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + nextDemoDelayMs())
    }
    return fault
  }

  /** A password sign-in, the refresh token in the form the world hands them out. */
  login(email: string, password: string): Promise<PasswordSignIn> {
    return login(this.#sql, email, password, Date.now(), signInSettingsOf(this.#sql).passwordSessionRefresh)
  }

  signInSettings(): SignInSettings {
    return signInSettingsOf(this.#sql)
  }

  /** POST /4/auth/mobile without a code: texts one to the number's phone. */
  sendCode(request: { mobileNumber: string; deviceToken: string; captchaToken: string | null }) {
    return sendCode(this.#sql, request, signInSettingsOf(this.#sql), Date.now())
  }

  /** POST /4/auth/mobile with the code: the session (and its tokens), or the challenge. */
  checkCode(request: { mobileNumber: string; code: string; deviceToken: string }): Exclude<CodeCheck, { kind: 'signed_in' }> | SignedIn {
    const got = checkCode(this.#sql, request, signInSettingsOf(this.#sql), Date.now())
    return got.kind === 'signed_in' ? this.#codeSessionOf(got.account) : got
  }

  /** POST /4/auth/challenge: the session (and its tokens). */
  answerChallenge(request: {
    challengeId: string
    email: string
    deviceToken: string
    claimToken: string | null
  }): SignedIn | { kind: 'refused'; why: CodeRefusal } {
    const got = answerChallenge(this.#sql, request, Date.now())
    return got.kind === 'signed_in' ? this.#codeSessionOf(got.account) : got
  }

  #codeSessionOf(account: SandboxAccount): SignedIn {
    const tokens = codeSession(this.#sql, account, Date.now(), signInSettingsOf(this.#sql).codeSessionRefresh)
    return { kind: 'signed_in', account, tokens }
  }

  /**
   * How the CDN answers this call before the API sees it, or null to let it through: a block
   * (blockOf), the datacenter mode's plain-text 500 for an account call from the wrong network
   * (network.ts), or Imperva's cookie challenge for an account call without the CDN's cookies.
   */
  firewall(call: {
    userAgent: string
    path: string
    origin: CallOrigin
    accountCall: boolean
    carriesCookies: boolean
  }): BlockStyle | 'cookie_challenge' | null {
    const blocked = this.blockOf(call.userAgent)
    if (blocked) return blocked
    const settings = signInSettingsOf(this.#sql)
    if (refusedFromHere(settings, call.path, call.origin)) return 'plain_500'
    if (settings.cdnCookiesRequired && call.accountCall && !call.carriesCookies) return 'cookie_challenge'
    return null
  }

  /** A CORS preflight: refused like the call it announces when the datacenter mode refuses that from here. */
  preflightRefused(path: string, origin: CallOrigin): boolean {
    return refusedFromHere(signInSettingsOf(this.#sql), path, origin)
  }

  /** POST /3/auth/refresh: a live refresh token (used up) for a new pair, in the form it came; null otherwise. */
  refresh(refreshToken: string): IssuedTokens | null {
    return refresh(this.#sql, refreshToken, Date.now())
  }

  account(token: string): SandboxAccount | null {
    return accountByToken(this.#sql, token, Date.now())
  }

  /** The venue as this world has it (its release rule may be the world's own: store/release-rules.ts). */
  venueOf(venueId: number): SandboxVenue | undefined {
    return venueIn(this.#sql, venueId)
  }

  /** The world's release clock now: the real clock, or the release contest's compressed one. */
  #releaseNow(): number {
    return releaseTimeOf(this.#sql)(Date.now())
  }

  /** The venue and its offered slots for the party (any party when null); null for an unknown venue. */
  offered(venueId: number, day: string, partySize: number | null): { venue: SandboxVenue; slots: SandboxSlot[] } | null {
    const venue = venueIn(this.#sql, venueId)
    if (!venue) return null
    const now = this.#releaseNow()
    const slots = slotsOn(this.#sql, venue, day).filter(
      (s) => isOffered(venue, s, now) && (partySize === null || (s.partyMin <= partySize && partySize <= s.partyMax)),
    )
    return { venue, slots }
  }

  /** Like the platform, mints a book token for any slot that was ever offered, taken or not. */
  details(
    token: string,
    config: ConfigRef,
    partySize: number,
  ): Authed<{ kind: 'not_found' } | { kind: 'ok'; slot: SandboxSlot; bookToken: string; expiresAt: number }> {
    const account = accountByToken(this.#sql, token, Date.now())
    if (!account) return { kind: 'unauthorized' }
    const venue = venueIn(this.#sql, config.key.venueId)
    const slot = venue ? slotEverOffered(this.#sql, venue, config.key) : null
    if (!slot || partySize < slot.partyMin || partySize > slot.partyMax) return { kind: 'not_found' }
    const minted = mintBookToken(this.#sql, account, config, partySize, Date.now())
    return { kind: 'ok', slot, bookToken: minted.token, expiresAt: minted.expiresAt }
  }

  book(token: string, request: { bookToken: string; paymentMethodId: number | null; client: string }): Authed<BookResult> {
    const account = accountByToken(this.#sql, token, Date.now())
    if (!account) return { kind: 'unauthorized' }
    const venueOf = (id: number) => venueIn(this.#sql, id)
    return book(this.#sql, account, request, Date.now(), { releaseNow: this.#releaseNow(), venueOf })
  }

  /**
   * What the account's reservation list shows: its bookings, upcoming and recent, and its history
   * (cancelled and past entries, store/history.ts); `lagMs` leaves out bookings made that recently
   * (a lagging list).
   */
  reservations(token: string, lagMs = 0): Authed<{ kind: 'ok'; bookings: Booking[]; history: HistoryEntry[] }> {
    const account = accountByToken(this.#sql, token, Date.now())
    if (!account) return { kind: 'unauthorized' }
    const now = Date.now()
    const bookings = listedOf(this.#sql, account.email, now).filter((b) => b.bookedAt <= now - lagMs)
    return { kind: 'ok', bookings, history: historyOf(this.#sql, account.email) }
  }

  /**
   * How the firewall answers this client now; null lets the call through. Not counted as an API
   * call, but counted by the CDN's rate rule, which may block the client from this call on.
   */
  blockOf(userAgent: string): BlockStyle | null {
    const now = Date.now()
    const recent = this.#recentCalls.get(userAgent) ?? []
    this.#recentCalls.set(userAgent, recent)
    countCall(this.#sql, recent, userAgent, now)
    return blockOf(this.#sql, userAgent, now)
  }

  /** A venue's calendar for the party over [start, end], as it stood the set lag ago; null for an unknown venue. */
  calendar(venueId: number, partySize: number, range: { start: string; end: string }): { days: CalendarDay[]; lastDay: string } | null {
    const venue = venueIn(this.#sql, venueId)
    if (!venue) return null
    return calendarOf(this.#sql, venue, partySize, range, Date.now(), calendarLagOf(this.#sql), releaseTimeOf(this.#sql))
  }

  // --- control API (reached only through /__sandbox/…, which is off unless SANDBOX_CONTROL=on)

  createAccount(input: AccountInput): Promise<SandboxAccount> {
    return createAccount(this.#sql, input, Date.now())
  }

  setSignInSettings(input: SignInSettingsInput): SignInSettings {
    return setSignInSettings(this.#sql, input)
  }

  /** The texts the world's phone received, newest first. */
  texts(mobileNumber: string | null): Text[] {
    return textsOf(this.#sql, mobileNumber)
  }

  reset(): void {
    wipe(this.#sql)
  }

  addSlot(input: AddSlotInput): boolean {
    const slot = addSlotSchema.parse(input)
    if (!venueIn(this.#sql, slot.venueId) || slot.partyMin > slot.partyMax) return false
    putSlot(this.#sql, slot, Date.now(), slot.opensAt)
    return true
  }

  removeSlot(input: SlotKey): boolean {
    const key = slotKeySchema.parse(input)
    const venue = venueIn(this.#sql, key.venueId)
    if (!venue || !currentSlot(this.#sql, venue, key)) return false
    takeSlot(this.#sql, key)
    return true
  }

  setPolicy(input: unknown): boolean {
    const { policy, ...key } = setPolicySchema.parse(input)
    const venue = venueIn(this.#sql, key.venueId)
    return venue ? setPolicy(this.#sql, venue, key, policy) : false
  }

  /** Adds a cancelled or past entry to an account's list; its reservation id. */
  addHistory(input: HistoryInput): number {
    return addHistory(this.#sql, input)
  }

  injectFault(input: FaultInput): void {
    injectFault(this.#sql, input)
  }

  /** The release contest: a venue releases at the world's own instant, stated in its notes or nowhere (null: as seeded). */
  setReleaseRule(venueId: number, rule: WorldReleaseRule | null): boolean {
    if (!venueById(venueId)) return false
    setReleaseRule(this.#sql, venueId, rule)
    return true
  }

  /** The release contest: the world's days pass every `secondsPerDay` real seconds from `epoch` (null: the real clock). */
  setReleaseClock(clock: { epoch: number; secondsPerDay: number } | null): void {
    setReleaseClock(this.#sql, clock)
  }

  setCalendarLag(lagMs: number): void {
    setCalendarLag(this.#sql, lagMs)
  }

  setCdnRate(input: CdnRateInput): void {
    setCdnRate(this.#sql, input)
  }

  block(input: BlockInput): void {
    setBlock(this.#sql, input, Date.now())
  }

  calls(): Partial<Record<Endpoint, number>> {
    return callCounts(this.#sql)
  }

  callsPerSecond(since: number, client?: string): [number, number][] {
    return callsPerSecond(this.#sql, since, client)
  }

  ledger(): Booking[] {
    return ledger(this.#sql)
  }

  invalidateTokens(email: string): number {
    return invalidateTokens(this.#sql, email)
  }

  expireAuthTokens(): number {
    return expireAuthTokens(this.#sql, Date.now())
  }

  setTokenLifetimes(input: TokenLifetimes): void {
    setTokenLifetimes(this.#sql, input)
  }

  demoTick(): { added: number; removed: number } {
    return demoTick(this.#sql, Date.now())
  }

  override async alarm(): Promise<void> {
    if (this.env.SANDBOX_DEMO !== 'on') return
    demoTick(this.#sql, Date.now())
    await this.ctx.storage.setAlarm(Date.now() + nextDemoDelayMs())
  }
}
