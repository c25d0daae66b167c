// What every tool needs for one MCP request: who is calling and the use-case dependencies.
import type { Principal } from '../core/principal'
import type { Deps } from '../requests/deps'

export interface ToolContext {
  principal: Principal
  deps: Deps
}
