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
// The turn is kept in memory: if the object restarts, a call in progress fails (its caller answers
// an error) and the next call finds the state in D1 and KV as that call left it.
import { DurableObject } from 'cloudflare:workers'
import { dbOf } from '../db/client'
import { GRANT_TTL_SECONDS, oauthApi, oauthSetup } from './oauth'
import { ObjectContext } from './object-context'
import { checkRefreshToken, recordIssuedRefreshToken } from './refresh-reuse'
import { oauthErrorAnswer, requestOf, type TokenAnswer, type TokenCall, tokenAnswerOf } from './token-call'

interface RefreshOutcome {
  answer: TokenAnswer
  /**
   * A replayed refresh token: the object refuses every refresh of the grant from now on, and the
   * caller ends the grant with its tokens and its requests (src/request-use-cases/revoke.ts).
   */
  replay: { userId: string; grantId: string } | null
}

const ENDED = 'ended'

const lostRace = () =>
  oauthErrorAnswer('invalid_grant', 'This refresh token was just used by another request. Use the newest refresh token.')
const replayed = () => oauthErrorAnswer('invalid_grant', 'This refresh token was used before. The connection has ended: connect again.')
const ended = () => oauthErrorAnswer('invalid_grant', 'This connection has ended: connect again.')

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
  refresh(call: TokenCall, refreshToken: string, arrivedAt: number): Promise<RefreshOutcome> {
    return this.#inTurn(async () => {
      if (await this.ctx.storage.get<boolean>(ENDED)) return { answer: await tokenAnswerOf(ended()), replay: null }
      const db = dbOf(this.env.DB)
      const presented = await checkRefreshToken(db, refreshToken, arrivedAt)
      if (presented.kind === 'raced') return { answer: await tokenAnswerOf(lostRace()), replay: null }
      if (presented.kind === 'replay') {
        await this.#markEnded()
        return { answer: await tokenAnswerOf(replayed()), replay: { userId: presented.userId, grantId: presented.grantId } }
      }
      const answer = await this.#library(call)
      // Recorded when it is issued: what a later presentation of the token it replaced is compared to.
      if (answer.ok) await recordIssuedRefreshToken(db, answer, presented, Date.now())
      return { answer: await tokenAnswerOf(answer), replay: null }
    })
  }

  /** An RFC 7009 revocation of one of the grant's tokens, answered by the library. */
  revoke(call: TokenCall): Promise<TokenAnswer> {
    return this.#inTurn(async () => tokenAnswerOf(await this.#library(call)))
  }

  /** Ends the grant: no refresh after this one, and the library deletes it with its tokens. */
  end(userId: string, grantId: string): Promise<void> {
    return this.#inTurn(async () => {
      await this.#markEnded()
      await oauthApi(this.env).revokeGrant(grantId, userId)
    })
  }

  /** A grant lives 30 days at most: a month after it ended, nothing about it is worth keeping. */
  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll()
  }

  async #markEnded(): Promise<void> {
    await this.ctx.storage.put(ENDED, true)
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + GRANT_TTL_SECONDS * 1000)
  }

  #library(call: TokenCall): Promise<Response> {
    return oauthSetup(this.env).server.fetch(requestOf(call), this.env, new ObjectContext(this.ctx))
  }
}
