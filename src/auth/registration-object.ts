// One Durable Object per registration fingerprint (an address and the client metadata it sends;
// src/auth/client-registration.ts). Registrations with one fingerprint run here one after the
// other, so parallel identical registrations of a public client still make one client; the
// library itself keeps clients in KV, which cannot tell two writers apart.
//
// What it keeps: that the fingerprint was registered before (new metadata takes from the small
// per-address budget, known metadata does not), and a public client's registration answer (no
// secret in it), handed to every identical registration while the client exists. Both go 90 days
// after the last registration, when the library's own client record would have gone if unused.
import { DurableObject } from 'cloudflare:workers'
import { dbOf } from '../db/client'
import { type Budget, takeSmoothUnit } from '../db/rate-limits'
import { oauthApi, oauthSetup } from './oauth'
import { ObjectContext } from './object-context'
import { requestOf, type TokenAnswer, type TokenCall, tokenAnswerOf } from './token-call'

const HOUR_MS = 60 * 60 * 1000
/** Different client metadata from one address: 30 at once, then one more every 2 minutes. */
const NEW_METADATA_PER_ADDRESS = { limit: 30, windowMs: HOUR_MS }
/** New clients from one address (a shared backend's confidential clients): 1,000 at once, then one every 3.6 s. */
const NEW_CLIENTS_PER_ADDRESS = { limit: 1_000, windowMs: HOUR_MS }
/** The library's default client registration lifetime (clientRegistrationTTL), 90 days. */
const KEPT_MS = 90 * 24 * HOUR_MS

const SEEN = 'seen'
const PUBLIC_ANSWER = 'public-answer'

/**
 * RFC 7591's error object (section 3.2.2). RFC 7591 has no code for a limit: its general refusal,
 * `invalid_client_metadata` (the server "has rejected this request"), says the registration was
 * refused for what it is; the status is RFC 6585's 429, which RFC 7591's "400 unless otherwise
 * specified" leaves room for, with the Retry-After a client can act on.
 */
function limited(retryAt: number, now: number, what: string): TokenAnswer {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000))
  const body = {
    error: 'invalid_client_metadata',
    error_description: `Too many ${what} from this address. Try again in ${seconds} seconds, or give a Client ID Metadata Document URL as client_id, which needs no registration.`,
  }
  return {
    status: 429,
    headers: [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'Cache-Control', value: 'no-store' },
      { name: 'Retry-After', value: String(seconds) },
    ],
    body: JSON.stringify(body),
  }
}

export class RegistrationObject extends DurableObject<Cloudflare.Env> {
  /** Settles when the call before has finished (failed or not). */
  #turn: Promise<unknown> = Promise.resolve()

  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(work)
    this.#turn = run.catch(() => undefined)
    return run
  }

  /** A registration whose body passed checkRegistration, from `addressKey` (src/lib/address-key.ts). */
  register(call: TokenCall, addressKey: string): Promise<TokenAnswer> {
    return this.#inTurn(async () => {
      const earlier = await this.#existingPublicClient()
      if (earlier) {
        await this.ctx.storage.setAlarm(Date.now() + KEPT_MS)
        return earlier
      }
      const now = Date.now()
      const seen = (await this.ctx.storage.get<boolean>(SEEN)) === true
      if (!seen) {
        const metadata = await this.#take({ key: `register:metadata:${addressKey}`, ...NEW_METADATA_PER_ADDRESS }, now)
        if (!metadata.ok) return limited(metadata.retryAt, now, 'client registrations with different metadata')
      }
      const clients = await this.#take({ key: `register:clients:${addressKey}`, ...NEW_CLIENTS_PER_ADDRESS }, now)
      if (!clients.ok) return limited(clients.retryAt, now, 'client registrations')
      const response = await oauthSetup(this.env).server.fetch(requestOf(call), this.env, new ObjectContext(this.ctx))
      const answer = await tokenAnswerOf(response)
      if (answer.status === 201) await this.#remember(answer)
      return answer
    })
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll()
  }

  /** The public client registered before with this fingerprint, while the library still has it. */
  async #existingPublicClient(): Promise<TokenAnswer | null> {
    const stored = await this.ctx.storage.get<TokenAnswer>(PUBLIC_ANSWER)
    if (!stored) return null
    const { client_id: clientId } = JSON.parse(stored.body) as { client_id?: unknown }
    if (typeof clientId === 'string' && (await oauthApi(this.env).lookupClient(clientId))) return stored
    await this.ctx.storage.delete(PUBLIC_ANSWER)
    return null
  }

  async #remember(answer: TokenAnswer): Promise<void> {
    const registered = JSON.parse(answer.body) as { client_secret?: unknown }
    // A confidential client's answer carries its secret: never stored, never handed out again.
    if (registered.client_secret === undefined) await this.ctx.storage.put(PUBLIC_ANSWER, answer)
    await this.ctx.storage.put(SEEN, true)
    await this.ctx.storage.setAlarm(Date.now() + KEPT_MS)
  }

  #take(budget: Budget, now: number) {
    return takeSmoothUnit(dbOf(this.env.DB), budget, now)
  }
}
