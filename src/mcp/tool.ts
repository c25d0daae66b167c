// One MCP tool from an operation of the table: the operation's schemas (arguments, structured
// result) and scope, the tool's own wording. Every tool runs the same way: check the scope,
// check the arguments, call the use case, answer with structured content and, for hosts that
// pass only text, a one-line summary followed by that same content as JSON.
import type { McpServer, ToolAnnotations } from '@modelcontextprotocol/server'
import type { z } from 'zod'
import { hasScope, requireScope } from '../core/principal'
import type { Scope } from '../core/scopes'
import type { Operation } from '../request-use-cases/operations'
import { argumentsOf, toolArguments } from './arguments'
import type { ToolContext } from './context'
import type { UrlElicitation } from './elicitation'
import { serviceIcons } from './icons'
import type { ApprovalState } from './input-required'
import { runTool, toolResult } from './result'
import { asToolSchema } from './tool-schema'

export interface ToolWording<T> {
  title: string
  description: string
  annotations: ToolAnnotations
  /** One line beside the structured result, for a model that reads only text. */
  summary(result: T, baseUrl: string): string
  /**
   * A page of the service the user must open after this result (an approval link), asked of a
   * client that supports URL-mode elicitation; the result carries it either way.
   */
  userPage?(result: T): UrlElicitation | null
  /** What a 2026-07-28 retry must carry back to be answered instead of asked (src/mcp/input-required.ts). */
  approvalState?(result: T): ApprovalState | null
  /**
   * The tool whose `spec` argument describes the spec's fields: this one's shows the same
   * constraints without repeating the words (src/mcp/tool-schema.ts).
   */
  specDescribedBy?: string
}

export interface McpTool {
  /** The operation's name with the interface's neutral `svc_` prefix. */
  name: string
  /** What the token must carry: a tool it does not is left out of tools/list. */
  scope: Scope
  /** Adds the tool to this request's server, when the caller's scopes allow it. */
  register(server: McpServer, ctx: ToolContext): void
}

export function toolOf<I extends z.ZodType, O extends z.ZodObject>(
  operationName: string,
  op: Operation<I, O>,
  wording: ToolWording<z.output<O>>,
): McpTool {
  const name = `svc_${operationName}`
  return {
    name,
    scope: op.scope,
    register(server, ctx) {
      if (!hasScope(ctx.principal, op.scope)) return
      server.registerTool(
        name,
        {
          title: wording.title,
          description: wording.description,
          // No outputSchema: the results' full shapes would triple tools/list (hosts put it into
          // the model's context every turn); structuredContent and its JSON text still carry them,
          // and the OpenAPI document describes them (docs/decisions/mcp.md).
          inputSchema: asToolSchema(toolArguments(op.input), wording.specDescribedBy),
          annotations: wording.annotations,
          icons: serviceIcons(ctx.deps.baseUrl),
        },
        (args, call) =>
          runTool(async () => {
            // Kept although tools/list hides the tool and /mcp refuses the call with a 403 first.
            requireScope(ctx.principal, op.scope)
            const { value } = await op.run(ctx.deps, ctx.principal, argumentsOf(args))
            const page = wording.userPage?.(value)
            if (page) {
              const state = wording.approvalState?.(value)
              const asked = state ? await ctx.approvals.ask(page, state, call) : null
              if (asked) return asked
              ctx.askToOpen?.(page)
            }
            return toolResult(value, wording.summary(value, ctx.deps.baseUrl))
          }),
      )
    },
  }
}
