// The approval page an auto_book request waiting for the user points to (not pre-authenticated),
// as create and update hand it to an MCP client that can open it.
import type { RequestView } from '../request-use-cases/schemas'
import type { ApprovalPage } from './operation'

export function approvalPage(view: RequestView): ApprovalPage | null {
  if (view.status !== 'needs_approval' || !view.action_url) return null
  return {
    url: view.action_url,
    message: `Review and approve "${view.title || 'this request'}" on Tablewatch: sign in, check the restaurants, dates, time window, party and fee limits, then approve. Nothing is booked until you do.`,
    request_id: view.id,
    revision: view.revision,
  }
}
