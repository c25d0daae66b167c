// The platform reports a venue's zone as `location.time_zone`, sometimes as a POSIX-style
// legacy name (EST5EDT) rather than an IANA region. The service stores IANA names only.

const LEGACY: Record<string, string> = {
  EST5EDT: 'America/New_York',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  'US/EASTERN': 'America/New_York',
  CST6CDT: 'America/Chicago',
  CST: 'America/Chicago',
  CDT: 'America/Chicago',
  'US/CENTRAL': 'America/Chicago',
  MST7MDT: 'America/Denver',
  MDT: 'America/Denver',
  'US/MOUNTAIN': 'America/Denver',
  // Plain MST has no daylight saving: Arizona.
  MST: 'America/Phoenix',
  'US/ARIZONA': 'America/Phoenix',
  PST8PDT: 'America/Los_Angeles',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
  'US/PACIFIC': 'America/Los_Angeles',
  AKST9AKDT: 'America/Anchorage',
  'US/ALASKA': 'America/Anchorage',
  HST: 'Pacific/Honolulu',
  'US/HAWAII': 'Pacific/Honolulu',
  GMT: 'Europe/London',
  UTC: 'UTC',
}

function isIanaRegion(name: string): boolean {
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+$/.test(name)) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** The IANA name for what the platform sent, or null when it is not a zone we recognise. */
export function ianaTimeZone(platformName: string): string | null {
  const name = platformName.trim()
  const legacy = LEGACY[name.toUpperCase()]
  if (legacy) return legacy
  return isIanaRegion(name) ? name : null
}
