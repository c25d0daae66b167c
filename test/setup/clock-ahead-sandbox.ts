// Injected first into the sandbox's test bundle (sandbox/test-workers.ts) when the run moves the
// clock ahead, so the stand-in platform and the service read the same "now".
import { installClockAhead } from './clock-ahead'

declare const TABLEWATCH_CLOCK_AHEAD_MS: number
installClockAhead(TABLEWATCH_CLOCK_AHEAD_MS)
