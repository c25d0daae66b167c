// What every tool needs for one MCP request: who is calling, the use-case dependencies, and,
// when the client declared URL-mode elicitation, a way to ask it to open one of our pages.
import type { Principal } from '../core/principal'
import type { Deps } from '../runtime/deps'
import type { UrlElicitation } from './elicitation'
import type { ApprovalRounds } from './input-required'

export interface ToolContext {
  principal: Principal
  deps: Deps
  /** Present only for a client that can open URLs for the user (src/mcp/elicitation.ts). */
  askToOpen?: ((elicitation: UrlElicitation) => void) | undefined
  /** The 2026-07-28 way to ask: an input_required answer (src/mcp/input-required.ts). */
  approvals: ApprovalRounds
}
