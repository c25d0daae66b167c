// A request's statuses (the contract's list) and which of them are still open. The D1 index
// counts open requests with the same list the status machine uses.
export const STATUSES = ['needs_approval', 'active', 'awaiting_verification', 'confirmed', 'expired', 'stopped', 'revoked'] as const
export type Status = (typeof STATUSES)[number]

export const OPEN_STATUSES = ['needs_approval', 'active', 'awaiting_verification'] as const satisfies readonly Status[]
