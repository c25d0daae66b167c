// What one operation is, in one place: its scope, input and output schemas, the use case it
// calls, how it travels over REST (path, parts, status, example, the skill file's note) and how
// it reads as an MCP tool (name, wording, annotations, the one-line summary). The REST routes
// (src/api/routes.ts), the MCP tools (src/mcp/tools.ts), the OpenAPI document, the skill file's
// lists and the scope tests are loops over the table (table.ts), so a scope or a schema cannot
// differ between the skins, and an operation added to the table is routed, listed and tested.
import type { z } from '@hono/zod-openapi'
import type { Principal } from '../core/principal'
import type { Scope } from '../core/scopes'
import type { Deps } from '../runtime/deps'

/** A use case's answer; `replayed` when a retry with the same idempotency key got the first call's result. */
export interface Answer<T> {
  value: T
  replayed: boolean
}

/** The error statuses a route may declare beside 422 (src/api/responses.ts words each one). */
export type ErrorStatus = 401 | 403 | 404 | 409 | 413 | 415 | 429

/**
 * The request parts, parsed with the route's own schemas. zod-openapi has already validated
 * each part against the same schema (a failure answers 422 before the handler), so these
 * parses only give the values their static types, which `c.req.valid` cannot inside a route
 * built from a table.
 */
export interface Parts {
  params<S extends z.ZodType>(schema: S): z.output<S>
  query<S extends z.ZodType>(schema: S): z.output<S>
  headers<S extends z.ZodType>(schema: S): z.output<S>
  body<S extends z.ZodType>(schema: S): Promise<z.output<S>>
}

export interface RestShape<I extends z.ZodType, O extends z.ZodObject = z.ZodObject> {
  method: 'get' | 'post' | 'put'
  /** The OpenAPI path under /api/v1 (`/requests/{request_id}`). */
  path: string
  /** The operation's name in the document, for generated clients (camelCase, unique). */
  operationId: string
  tags: string[]
  summary: string
  status: 200 | 201
  description: string
  errors: ErrorStatus[]
  request: { params?: z.ZodObject; query?: z.ZodObject; headers?: z.ZodObject; body?: z.ZodType }
  /** A realistic request body (examples.ts), for routes that take one. */
  bodyExample?: unknown
  /** A realistic answer of the success status. */
  example: z.output<O>
  /** The operation's input, from the parts `request` declares. */
  input(parts: Parts): z.output<I> | Promise<z.output<I>>
  /** The skill file's row for this route: the path as a caller writes it, and what to know. */
  skill: { path?: string; note: string }
}

/** MCP's tool annotations, in the order tools/list shows them. */
interface ToolHints {
  readOnlyHint: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint: boolean
}

/** A page of the service the user must open after a result: approving one revision of one request. */
export interface ApprovalPage {
  url: string
  message: string
  request_id: string
  revision: number
}

export interface ToolWording<T> {
  title: string
  description: string
  annotations: ToolHints
  /** One line beside the structured result, for a model that reads only text. */
  summary(result: T, baseUrl: string): string
  /**
   * The approval page the user must open after this result, asked of a client that supports
   * URL-mode elicitation (and carried back by a 2026-07-28 retry); the result carries it either way.
   */
  approval?(result: T): ApprovalPage | null
  /**
   * The tool whose `spec` argument describes the spec's fields: this one's shows the same
   * constraints without repeating the words (src/mcp/tool-schema.ts).
   */
  specDescribedBy?: string
}

export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodObject = z.ZodObject> {
  /** snake_case; the MCP tool is `svc_` + name. */
  name: string
  /** The token must carry it, on every skin. */
  scope: Scope
  /** The whole input, as MCP takes it; REST reads the same fields from path, query, header and body. */
  input: I
  output: O
  run(deps: Deps, principal: Principal, input: z.output<I>): Promise<Answer<z.output<O>>>
  rest: RestShape<I, O>
  /** null: a REST-only operation. */
  tool: ToolWording<z.output<O>> | null
}

export const operation = <I extends z.ZodType, O extends z.ZodObject>(op: Operation<I, O>): Operation<I, O> => op

/** A use case's value as a first answer (no idempotent replay). */
export const fresh = async <T>(value: Promise<T>): Promise<Answer<T>> => ({ value: await value, replayed: false })
