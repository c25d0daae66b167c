// One MCP tool from an operation of the table: the operation's schemas (arguments, structured
// result) and scope, the tool's own wording. Every tool runs the same way: check the scope,
// check the arguments, call the use case, answer with structured content and a short text.
import type { McpServer, ToolAnnotations } from '@modelcontextprotocol/server'
import type { z } from 'zod'
import { requireScope } from '../core/principal'
import type { Operation } from '../requests/operations'
import { argumentsOf, toolArguments } from './arguments'
import type { ToolContext } from './context'
import { runTool, toolResult } from './result'

export interface ToolWording<T> {
  title: string
  description: string
  annotations: ToolAnnotations
  /** The short text beside the structured result, for a model that reads only text. */
  text(result: T): string
}

export type RegisterTool = (server: McpServer, ctx: ToolContext) => void

/** The tool's name is the operation's, with the interface's neutral `svc_` prefix. */
export function toolOf<I extends z.ZodType, O extends z.ZodObject>(
  name: string,
  op: Operation<I, O>,
  wording: ToolWording<z.output<O>>,
): RegisterTool {
  return (server, ctx) => {
    server.registerTool(
      `svc_${name}`,
      {
        title: wording.title,
        description: wording.description,
        inputSchema: toolArguments(op.input),
        outputSchema: op.output,
        annotations: wording.annotations,
      },
      (args) =>
        runTool(async () => {
          requireScope(ctx.principal, op.scope)
          const { value } = await op.run(ctx.deps, ctx.principal, argumentsOf(args))
          return toolResult(value, wording.text(value))
        }),
    )
  }
}
