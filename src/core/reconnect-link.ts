// Where a diner reconnects their platform account: the platform section of Settings. Every
// notice that asks for a reconnect (the session's end, a rejected sign-in, a table that waits for
// one) links here, so the flow is the same short one wherever it starts.
const RECONNECT_PATH = '/settings#platform'

export const reconnectUrl = (baseUrl: string) => `${baseUrl}${RECONNECT_PATH}`
