// The MCP tools: one per operation of the table (src/requests/operations.ts) that assistants
// reach over MCP, in the order tools/list shows them. Scope and schemas come from the
// operation; only the wording is the tool's own.
import { OPERATIONS, type OperationName } from '../requests/operations'
import type { RequestView } from '../requests/schemas'
import { approvalElicitationId, type UrlElicitation } from './elicitation'
import { RULES } from './instructions'
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
      "Search restaurants by name, neighborhood or city (2 to 200 characters) for their venue_id and time_zone. Up to 8 results; no live availability. Send a venue's time_zone as the request's timezone. Needs restaurants:read.",
    // Also asks the reservation platform's venue search; a venue found there joins the
    // service's catalog, a cache of public facts, so nothing the user owns changes.
    annotations: { readOnlyHint: true, openWorldHint: true },
    summary: (result) => restaurantsSummary(result.restaurants),
  }),
  preview_request: toolOf('preview_request', op.preview_request, {
    title: 'Preview a request',
    description: [
      'Validate a request spec exactly as create would and resolve its restaurants and time zone; creates nothing.',
      'Also reports whether the service is ready to watch or book for this user (executor).',
      'expires_at needs a UTC offset, must be in the future, no later than the end of the last requested window, and before this connection ends.',
      RULES.confirmPreview,
      'Needs requests:read.',
    ].join(' '),
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: previewSummary,
  }),
  create_request: toolOf('create_request', op.create_request, {
    title: 'Create a request',
    description: [
      'Create a request to watch for a table. alert_only starts watching at once (status active) and alerts the user on a match.',
      'auto_book starts as needs_approval with an action_url.',
      RULES.actionUrl,
      RULES.confirmPreview,
      RULES.oneRequestPerDinner,
      RULES.idempotency,
      'Needs requests:write.',
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
      'Replace the whole spec of an open request. Send the revision from the latest view; a stale one fails with revision_conflict (read the request again).',
      "A changed auto_book request needs the user's approval again: it returns to needs_approval with a new action_url.",
      RULES.actionUrl,
      RULES.idempotency,
      'Needs requests:write.',
    ].join(' '),
    // It replaces the spec the user agreed to (destructive); retries with the same key apply once.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    summary: requestSummary,
    userPage: approvalPage,
    approvalState: (view) => ({ request_id: view.id, revision: view.revision }),
  }),
  get_request: toolOf('get_request', op.get_request, {
    title: 'Read a request',
    description: [
      'Read a request created through this connection: status, revision, action_url while it needs approval, and reservations (with reservations:read).',
      RULES.verified,
      RULES.polling,
      'Needs requests:read.',
    ].join(' '),
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: requestSummary,
  }),
  list_requests: toolOf('list_requests', op.list_requests, {
    title: 'List requests',
    description: [
      "This connection's requests, newest first, including ones from earlier conversations; limit 1 to 100 (default 20), and next_cursor for the next page.",
      `Check it before creating: ${RULES.oneRequestPerDinner}`,
      'Needs requests:read.',
    ].join(' '),
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: listSummary,
  }),
  stop_request: toolOf('stop_request', op.stop_request, {
    title: 'Stop a request',
    description: [
      'Stop watching for a table. A stopped request cannot be restarted; create a new one if the user changes their mind.',
      RULES.stopNeverCancels,
      'A booking already in flight is not undone. Stopping a stopped request returns it unchanged. Needs requests:write.',
    ].join(' '),
    // Ends monitoring for good (so hosts should confirm with the user), but never cancels a
    // reservation; a second stop changes nothing.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    summary: requestSummary,
  }),
  get_reservation: toolOf('get_reservation', op.get_reservation, {
    title: 'Read a reservation',
    description: [
      'Read a reservation that a request of this connection made.',
      RULES.verified,
      RULES.stopNeverCancels,
      'Needs reservations:read.',
    ].join(' '),
    annotations: { readOnlyHint: true, openWorldHint: false },
    summary: reservationSummary,
  }),
  capabilities: null,
}

/** The tool of this name, if there is one (tools/call names it before any tool runs). */
export function toolNamed(name: string): McpTool | undefined {
  return Object.values(TOOLS).find((tool) => tool?.name === name) ?? undefined
}
