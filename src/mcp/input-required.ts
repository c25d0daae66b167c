// Approval under MCP 2026-07-28. That revision has no server-to-client request
// channel: a server needing the user answers a request with the multi-round-trip
// `input_required` result (`inputRequests` plus an opaque `requestState`), and the client retries
// the same call carrying `inputResponses` and the `requestState` back
// (`@modelcontextprotocol/server` 2.4.0: `inputRequired`, `inputRequired.elicitUrl`,
// `createRequestStateCodec`, `ServerOptions.requestState.verify`, dist/mcp-*.d.mts and
// dist/index.d.mts). When create or update leaves an auto_book request in `needs_approval` and
// the client declared URL-mode elicitation in this request's `_meta` envelope, the answer is
// that result with a URL-mode elicitation of the approval page. The retry (same arguments, so
// the idempotent create or update returns the same request) answers with the request as it is
// then, approved or still waiting: it never asks twice and never waits for the user. The
// client's answer to the elicitation changes nothing: approval happens only on the page, after
// the user signs in.
//
// requestState is the request's id and revision, HMAC-signed (the SDK's codec; key derived from
// CSRF_SECRET), bound to the caller's user and principal, valid for an hour: state forged,
// replayed by another connection, or expired is refused by the SDK with -32602 before any tool
// runs.
import {
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server'
import type { Principal } from '../core/principal'
import type { UrlElicitation } from './elicitation'

interface ApprovalState {
  request_id: string
  revision: number
}

const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities'
const STATE_TTL_SECONDS = 60 * 60

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether this 2026-07-28 request's envelope declares URL-mode elicitation. */
function declaresUrlMode(ctx: ServerContext): boolean {
  const envelope: unknown = ctx.mcpReq.envelope
  const capabilities = isObject(envelope) ? envelope[CAPABILITIES_KEY] : undefined
  return isObject(capabilities) && isObject(capabilities.elicitation) && isObject(capabilities.elicitation.url)
}

export interface ApprovalRounds {
  /** For ServerOptions.requestState.verify: the SDK refuses a state this does not accept. */
  codec: RequestStateCodec<ApprovalState>
  /** The input_required answer for a request waiting for approval, or null to answer as usual. */
  ask(page: UrlElicitation, state: ApprovalState, ctx: ServerContext): Promise<InputRequiredResult | null>
}

export function approvalRounds(env: Pick<Cloudflare.Env, 'CSRF_SECRET'>, principal: Principal): ApprovalRounds {
  const codec = createRequestStateCodec<ApprovalState>({
    // Domain-separated from the CSRF tokens signed with the same secret.
    key: `tablewatch/mcp-request-state/v1\0${env.CSRF_SECRET}`,
    ttlSeconds: STATE_TTL_SECONDS,
    bind: () => `${principal.userId}\0${principal.principalId}`,
  })
  return {
    codec,
    async ask(page, state, ctx) {
      // A retry (any verified state) gets the request as it is; a client that cannot open URLs
      // on this revision gets the link in the result, as every other client does.
      if (ctx.mcpReq.requestState() !== undefined || !declaresUrlMode(ctx)) return null
      return inputRequired({
        inputRequests: { approval: inputRequired.elicitUrl({ url: page.url, message: page.message }) },
        requestState: await codec.mint(state, ctx),
      })
    },
  }
}
