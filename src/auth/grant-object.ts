// One Durable Object per OAuth grant, named `<user id>:<grant id>` (the first two parts of every
// token the grant issues; src/auth/grant-stub.ts). The library keeps grants in KV, which has no
// compare-and-swap: refreshes that ran side by side each read the grant, each rotated it and each
// answered 200, and a refresh running while the grant was deleted wrote it back
// (cloudflare/workers-oauth-provider#214). So everything that changes a grant runs here, one call
// after the other: every refresh (the reuse rules of src/auth/refresh-reuse.ts, then the library),
// every RFC 7009 revocation of one of its tokens, and its end. Once a grant has ended (a replayed
// refresh token, a disconnect) the object refuses every later refresh itself, whatever a KV
// replica still shows.
//
// The answer of the newest rotation is kept here, sealed, for DUPLICATE_REFRESH_WINDOW_MS: the
// duplicates of that refresh (a host's parallel refreshes, a retry) get the same token pair, so a
// grant never branches and no holder of a stale token can take it over.
//
// The turn is kept in memory: if the object restarts, a call in progress fails (its caller answers
// an error) and the next call finds the state in D1, KV and storage as that call left it.
import { DurableObject } from 'cloudflare:workers'
import { dbOf } from '../db/client'
import { sha256Hex } from '../lib/random'
import { open, type Sealed, seal } from '../lib/secret-box'
import { GRANT_TTL_SECONDS, oauthApi, oauthSetup } from './oauth'
import { clientOfGrant } from './oauth-grants'
import { ObjectContext } from './object-context'
import {
  checkRefreshToken,
  DUPLICATE_REFRESH_WINDOW_MS,
  isRecordedRefreshTokenOf,
  type PresentedRefreshToken,
  recordIssuedRefreshToken,
} from './refresh-reuse'
import { oauthErrorAnswer, requestOf, type TokenAnswer, type TokenCall, tokenAnswerOf } from './token-call'

interface RefreshOutcome {
  answer: TokenAnswer
  /**
   * A replayed refresh token: the object refuses every refresh of the grant from now on, and the
   * caller ends the grant with its tokens and its requests (src/request-use-cases/revoke.ts).
   */
  replay: { userId: string; grantId: string } | null
}

/** The newest rotation: which token it replaced (SHA-256), when, and its answer, sealed. */
interface LastRotation {
  replacedHash: string
  at: number
  answer: Sealed
}

const ENDED = 'ended'
const LAST_ROTATION = 'lastRotation'

/** Ties the sealed answer to the token it answers, so it opens for that rotation only. */
const sealOwner = (replacedHash: string) => `grant rotation answer ${replacedHash}`

const justRotated = () =>
  oauthErrorAnswer('invalid_grant', 'This refresh token was just rotated by another request. Use the newest refresh token.')
const replayed = () => oauthErrorAnswer('invalid_grant', 'This refresh token was used before. The connection has ended: connect again.')
const ended = () => oauthErrorAnswer('invalid_grant', 'This connection has ended: connect again.')

/** Refusals that say the token is not (or no longer) this grant's; a bad request or client is not one. */
const isGrantRefusal = async (answer: Response) =>
  answer.status === 400 &&
  (await answer
    .clone()
    .json()
    .then((body: unknown) => body !== null && typeof body === 'object' && 'error' in body && body.error === 'invalid_grant')
    .catch(() => false))

export class GrantObject extends DurableObject<Cloudflare.Env> {
  /** Settles when the call before has finished (failed or not). */
  #turn: Promise<unknown> = Promise.resolve()

  /** Runs `work` once every earlier call of this object has finished. */
  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(work)
    this.#turn = run.catch(() => undefined)
    return run
  }

  /** A refresh-token grant. `arrivedAt`: when the request reached the service, before its turn. */
  refresh(call: TokenCall, refreshToken: string, arrivedAt: number, clientIds: string[]): Promise<RefreshOutcome> {
    return this.#inTurn(async () => {
      if (await this.ctx.storage.get<boolean>(ENDED)) return { answer: await tokenAnswerOf(ended()), replay: null }
      const db = dbOf(this.env.DB)
      const presented = await checkRefreshToken(db, refreshToken, arrivedAt)
      if (presented.kind === 'duplicate') return { answer: await this.#answerOfLastRotation(presented.tokenHash), replay: null }
      if (presented.kind === 'replay') return this.#replay(presented)
      const answer = await this.#library(call)
      if (answer.ok) {
        // Recorded when it is issued: what a later presentation of the token it replaced is compared to.
        await recordIssuedRefreshToken(db, answer, presented, Date.now())
        const tokenAnswer = await tokenAnswerOf(answer)
        await this.#keepLastRotation(refreshToken, tokenAnswer)
        return { answer: tokenAnswer, replay: null }
      }
      // The library refusing, to the grant's own client, a token this grant issued while the grant
      // lives means the token fell out of its current and previous pair: a reuse, like a replay.
      // (Another client presenting it is refused as before and changes nothing.)
      const [userId = '', grantId = ''] = refreshToken.split(':')
      if (presented.kind === 'accepted' && (await isGrantRefusal(answer))) {
        const client = await clientOfGrant(this.env, userId, grantId)
        if (client !== null && clientIds.includes(client)) return this.#replay({ kind: 'replay', userId, grantId })
      }
      return { answer: await tokenAnswerOf(answer), replay: null }
    })
  }

  /**
   * An RFC 7009 revocation of one of the grant's tokens, answered by the library. A refresh token
   * the grant issued (as recorded), revoked by the grant's own client, ends the grant even when the
   * library no longer counts it among the grant's current pair.
   */
  revoke(call: TokenCall, token: string, clientIds: string[]): Promise<TokenAnswer> {
    return this.#inTurn(async () => {
      const [userId = '', grantId = ''] = token.split(':')
      const recorded = await isRecordedRefreshTokenOf(dbOf(this.env.DB), token, { userId, grantId })
      // Read before the library answers: a revocation it honours deletes the grant.
      const ownClient = recorded ? await clientOfGrant(this.env, userId, grantId) : null
      const answer = await this.#library(call)
      if (answer.ok && ownClient !== null && clientIds.includes(ownClient)) await this.#end(userId, grantId)
      return tokenAnswerOf(answer)
    })
  }

  /** Ends the grant: no refresh after this one, and the library deletes it with its tokens. */
  end(userId: string, grantId: string): Promise<void> {
    return this.#inTurn(() => this.#end(userId, grantId))
  }

  /** Forgets a rotation's answer once its window is over; a month after the grant ended, everything. */
  override async alarm(): Promise<void> {
    if (await this.ctx.storage.get<boolean>(ENDED)) {
      await this.ctx.storage.deleteAll()
      return
    }
    const last = await this.ctx.storage.get<LastRotation>(LAST_ROTATION)
    if (!last) return
    const over = last.at + DUPLICATE_REFRESH_WINDOW_MS
    if (Date.now() >= over) await this.ctx.storage.delete(LAST_ROTATION)
    else await this.ctx.storage.setAlarm(over)
  }

  async #end(userId: string, grantId: string): Promise<void> {
    await this.#markEnded()
    await oauthApi(this.env).revokeGrant(grantId, userId)
  }

  async #replay(presented: Extract<PresentedRefreshToken, { kind: 'replay' }>): Promise<RefreshOutcome> {
    await this.#markEnded()
    return { answer: await tokenAnswerOf(replayed()), replay: { userId: presented.userId, grantId: presented.grantId } }
  }

  async #markEnded(): Promise<void> {
    await this.ctx.storage.put(ENDED, true)
    await this.ctx.storage.delete(LAST_ROTATION)
    // Replaces a rotation's alarm, if one was set: the month-long one is the only one left to fire.
    await this.ctx.storage.setAlarm(Date.now() + GRANT_TTL_SECONDS * 1000)
  }

  async #keepLastRotation(replacedToken: string, answer: TokenAnswer): Promise<void> {
    const replacedHash = await sha256Hex(replacedToken)
    const sealed = await seal(this.env.PLATFORM_TOKEN_KEY, JSON.stringify(answer), sealOwner(replacedHash))
    const at = Date.now()
    await this.ctx.storage.put<LastRotation>(LAST_ROTATION, { replacedHash, at, answer: sealed })
    await this.ctx.storage.setAlarm(at + DUPLICATE_REFRESH_WINDOW_MS)
  }

  /**
   * The answer of the rotation that replaced the presented token, its `expires_in` counted from
   * now; `invalid_grant` (the grant lives on) when it is not kept, e.g. rotated before answers were.
   */
  async #answerOfLastRotation(presentedHash: string): Promise<TokenAnswer> {
    const last = await this.ctx.storage.get<LastRotation>(LAST_ROTATION)
    if (!last || last.replacedHash !== presentedHash) return tokenAnswerOf(justRotated())
    const answer: TokenAnswer = JSON.parse(await open(this.env.PLATFORM_TOKEN_KEY, last.answer, sealOwner(presentedHash)))
    return { ...answer, body: withExpiryFromNow(answer.body, Date.now() - last.at) }
  }

  #library(call: TokenCall): Promise<Response> {
    return oauthSetup(this.env).server.fetch(requestOf(call), this.env, new ObjectContext(this.ctx))
  }
}

/** A token answer's `expires_in`, less the seconds since it was issued. */
function withExpiryFromNow(body: string, elapsedMs: number): string {
  const parsed: unknown = JSON.parse(body)
  if (!parsed || typeof parsed !== 'object' || !('expires_in' in parsed) || typeof parsed.expires_in !== 'number') return body
  return JSON.stringify({ ...parsed, expires_in: Math.max(1, parsed.expires_in - Math.floor(elapsedMs / 1000)) })
}
