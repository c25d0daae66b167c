// First setup file of the workerd projects: the clock ahead (clock-ahead.ts) when the run asks
// for it (TABLEWATCH_CLOCK_AHEAD_MS, passed by workerd-pool.ts as TEST_CLOCK_AHEAD_MS).
import { env } from 'cloudflare:test'
import { installClockAhead } from './clock-ahead'

installClockAhead(Number(env.TEST_CLOCK_AHEAD_MS ?? 0))
