// The MCP tools: one per operation of the table (src/request-use-cases/operations.ts) that assistants
// reach over MCP, in the order tools/list shows them. Scope and schemas come from the
// operation; only the wording is the tool's own.
import { OPERATIONS, type OperationName } from '../request-use-cases/operations'
import type { RequestView } from '../request-use-cases/schemas'
import { approvalElicitationId, type UrlElicitation } from './elicitation'
import { listSummary, previewSummary, requestSummary, reservationSummary, restaurantsSummary } from './summaries'
import { type McpTool, toolOf } from './tool'

const op = OPERATIONS

/** An auto_book request waiting for the user: its approval page (not pre-authenticated). */
function approvalPage(view: RequestView): UrlElicitation | null {
  if (view.status !== 'needs_approval' || !view.action_url) return null
  return {
    id: approvalElicitationId(view.id, view.revision),
    url: view.action_url,
    message: `Review and approve "${view.title || 'this request'}" on Tablewatch: sign in, check the restaurants, dates, time window, party and fee limits, then approve. Nothing is booked until you do.`,
  }
}

/** null: a REST-only operation (capabilities: the preview's executor answers it on MCP). */
export const TOOLS: Record<OperationName, McpTool | null> = {
  find_restaurants: toolOf('find_restaurants', op.find_restaurants, {
    title: 'Find restaurants',
    description:
      "Search restaurants by name, neighborhood or city for their venue_id and time_zone (send it as the request's timezone). Up to 8 results; no live availability.",
    // Also asks the reservation platform's venue search; a venue found there joins the
    // service's catalog, a cache of public facts, so nothing the user owns changes.
    annotations: { readOnlyHint: true, openWorldHint: true },
    summary: (result) => restaurantsSummary(result.restaurants),
  }),
  preview_request: toolOf('preview_request', op.preview_request, {
    title: 'Preview a request',
    description:
      'Check a spec exactly as create would, resolve its restaurants and time zone, and say whether the service is ready to watch or book for this user (executor); creates nothing. Show the user the resolved restaurants, dates, time window and party size, and create only after the user confirms.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: previewSummary,
    specDescribedBy: 'svc_create_request',
  }),
  create_request: toolOf('create_request', op.create_request, {
    title: 'Create a request',
    description: [
      'Create a request to watch for a table, once the user confirmed its preview. alert_only watches at once (active) and alerts the user on a match.',
      "auto_book starts as needs_approval with an action_url: always give the user that link. Only the user can approve, on the service's site; nothing is watched or booked until they do.",
      'One request per dinner: update or stop an open one instead. Retry with the same idempotency_key; a new spec needs a new key.',
    ].join(' '),
    // The same idempotency_key and spec return the same request: retries add nothing.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    summary: requestSummary,
    userPage: approvalPage,
    approvalState: (view) => ({ request_id: view.id, revision: view.revision }),
  }),
  update_request: toolOf('update_request', op.update_request, {
    title: 'Update a request',
    description: [
      'Replace the whole spec of an open request. Send the revision of the latest view; a stale one fails with revision_conflict (read the request again).',
      'A changed auto_book request needs approval again: give the user its new action_url. Retry with the same idempotency_key.',
    ].join(' '),
    // It replaces the spec the user agreed to (destructive); retries with the same key apply once.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    summary: requestSummary,
    userPage: approvalPage,
    approvalState: (view) => ({ request_id: view.id, revision: view.revision }),
    specDescribedBy: 'svc_create_request',
  }),
  get_request: toolOf('get_request', op.get_request, {
    title: 'Read a request',
    description: [
      'Read a request of this connection: status, revision, action_url while it needs approval, and reservations (with reservations:read).',
      'Never tell the user a table is booked until a reservation has verified: true; while awaiting_verification, say it is being verified.',
      'Check when the user asks, or at most every few minutes.',
    ].join(' '),
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: requestSummary,
  }),
  list_requests: toolOf('list_requests', op.list_requests, {
    title: 'List requests',
    description:
      "This connection's requests, newest first, earlier conversations' included; next_cursor reads on. Check it before creating: one request per dinner.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: listSummary,
  }),
  stop_request: toolOf('stop_request', op.stop_request, {
    title: 'Stop a request',
    description:
      "Stop watching for a table, for good (create a new request if the user changes their mind). It never cancels a reservation: that is done on the platform's own account page. A booking in flight is not undone; stopping again changes nothing.",
    // Ends monitoring for good (so hosts should confirm with the user), but never cancels a
    // reservation; a second stop changes nothing.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    summary: requestSummary,
  }),
  get_reservation: toolOf('get_reservation', op.get_reservation, {
    title: 'Read a reservation',
    description:
      "Read a reservation a request of this connection made. Call it booked only when verified is true. It is cancelled or changed on the platform's account page (manage_url); stopping a request never cancels it.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: reservationSummary,
  }),
  capabilities: null,
}

/** The tool of this name, if there is one (tools/call names it before any tool runs). */
export function toolNamed(name: string): McpTool | undefined {
  return Object.values(TOOLS).find((tool) => tool?.name === name) ?? undefined
}
