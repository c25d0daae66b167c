// The rules an assistant must follow, stated once for the MCP server's `instructions` and
// repeated where each tool needs them (the summaries, the tools' descriptions).

export const RULES = {
  confirmPreview:
    'Always preview first and show the user the resolved restaurants, dates, time window and party size, and any warnings; create only after the user confirms that spec.',
  actionUrl:
    "An auto_book request starts as needs_approval with an action_url: always give the user that link. Only the user can approve, on the service's own site; you cannot approve for them. Nothing is watched or booked until they do.",
  verified:
    'Never tell the user a table is booked until a reservation entry has verified: true. While the status is awaiting_verification, say the service is verifying; claim neither success nor failure.',
  stopNeverCancels:
    "Stopping ends monitoring only. It never cancels a reservation: existing reservations are cancelled or changed on the reservation platform's own account page.",
  oneRequestPerDinner: 'Do not create a second request for the same dinner while one is open: update or stop the first.',
  idempotency: 'Reuse the same idempotency_key when you retry the same call; use a new key for a different spec.',
  tokens: 'Never ask the user to paste a token into the chat, and never repeat one.',
  polling: 'Check status when the user asks, or at most every few minutes.',
} as const

export const SERVER_INSTRUCTIONS = [
  'Tablewatch watches the reservation platform for a table that matches a request, then alerts the user (alert_only) or, after the user approves, books it (auto_book).',
  "Flow: svc_find_restaurants for venue ids and each venue's time_zone (send it as timezone) → svc_preview_request → confirm with the user → svc_create_request → svc_get_request to follow it.",
  ...Object.values(RULES),
  "The service charge is 0 USD; cancellation or no-show fees are bounded by max_cancellation_fee_per_person. The platform's terms prohibit automated access and it may deactivate accounts that use such tools: make sure the user knows.",
].join('\n')
