// One MCP tool from an operation of the table (src/operations): the operation's schemas
// (arguments, structured result), scope and tool wording. Every tool runs the same way: check the scope,
// check the arguments, call the use case, answer with structured content and, for hosts that
// pass only text, a one-line summary followed by that same content as JSON.
import type { McpServer } from '@modelcontextprotocol/server'
import type { z } from 'zod'
import { hasScope, requireScope } from '../core/principal'
import type { Scope } from '../core/scopes'
import type { Operation, ToolWording } from '../operations/operation'
import { argumentsOf, toolArguments } from './arguments'
import type { ToolContext } from './context'
import { approvalElicitationId } from './elicitation'
import { viewMetaOf } from './request-view'
import { runTool, toolResult } from './result'
import { asToolSchema } from './tool-schema'

export interface McpTool {
  /** The operation's name with the interface's neutral `svc_` prefix. */
  name: string
  /** What the token must carry: a tool it does not is left out of tools/list. */
  scope: Scope
  /** Adds the tool to this request's server, when the caller's scopes allow it. */
  register(server: McpServer, ctx: ToolContext): void
}

export function toolOf<I extends z.ZodType, O extends z.ZodObject>(op: Operation<I, O>, wording: ToolWording<z.output<O>>): McpTool {
  const name = `svc_${op.name}`
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
          // Both hints on every tool, as connector directories ask: a read says it destroys nothing
          // (the protocol's default for a missing destructiveHint is true).
          annotations: { ...wording.annotations, destructiveHint: wording.annotations.destructiveHint ?? false },
          // No per-tool icons: the server's own (src/mcp/server.ts) is what hosts show, and eight
          // copies of it cost tools/list about 760 bytes.
          _meta: viewMetaOf(name),
        },
        (args, call) =>
          runTool(async () => {
            // Kept although tools/list hides the tool and /mcp refuses the call with a 403 first.
            requireScope(ctx.principal, op.scope)
            const { value } = await op.run(ctx.deps, ctx.principal, argumentsOf(args))
            const approval = wording.approval?.(value)
            if (approval) {
              const { url, message, request_id, revision } = approval
              const page = { id: approvalElicitationId(request_id, revision), url, message }
              const asked = await ctx.approvals.ask(page, { request_id, revision }, call)
              if (asked) return asked
              ctx.askToOpen?.(page)
            }
            return toolResult(value, wording.summary(value, ctx.deps.baseUrl))
          }),
      )
    },
  }
}
