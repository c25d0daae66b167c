// The contract's error bodies, parsed with zod: `{code, message}` for named errors and
// `{detail: [{loc, msg, type}]}` for schema failures (shared/spec/interface.md, Errors).
import { z } from 'zod'

export const NamedError = z.object({ code: z.string().min(1), message: z.string().min(1) })

export const DetailError = z.object({
  detail: z
    .array(z.object({ loc: z.array(z.union([z.string(), z.number()])).min(1), msg: z.string().min(1), type: z.string().min(1) }))
    .min(1),
})

export const ContractError = z.union([NamedError, DetailError])
export type ContractError = z.infer<typeof ContractError>

/** How a refusal must look: any contract body, a `detail` body, or a named code. */
export type Refusal =
  | { kind: 'any' }
  | { kind: 'status'; status: number }
  | { kind: 'detail' }
  | { kind: 'code'; code: string; status?: number }

export const ANY: Refusal = { kind: 'any' }
export const DETAIL: Refusal = { kind: 'detail' }
/** Any contract body, with this status. */
export const status = (value: number): Refusal => ({ kind: 'status', status: value })
export const code = (name: string, status?: number): Refusal =>
  status === undefined ? { kind: 'code', code: name } : { kind: 'code', code: name, status }

/** Why an answer breaks the contract for a bad input, or null when it is a proper refusal. */
export function refusalProblem(status: number, body: unknown, want: Refusal): string | null {
  if (status < 400 || status > 499) return `status ${status}, wanted a 4xx`
  const parsed = ContractError.safeParse(body)
  if (!parsed.success) return `status ${status} with a body outside the contract`
  if (want.kind === 'status' && status !== want.status) return `status ${status}, wanted ${want.status}`
  if (want.kind === 'detail') {
    if (status !== 422 || !('detail' in parsed.data)) return `status ${status}, wanted 422 with a detail list`
  }
  if (want.kind === 'code') {
    const got = 'code' in parsed.data ? parsed.data.code : 'detail'
    if (got !== want.code) return `code ${got}, wanted ${want.code}`
    if (want.status !== undefined && status !== want.status) return `status ${status}, wanted ${want.status}`
  }
  return null
}
