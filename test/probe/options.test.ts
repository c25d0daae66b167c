// The probe's flags: the real platform by default, a few venues, no credentials on the command line.
import { describe, expect, it } from 'vitest'
import { parseOptions, REAL_PLATFORM, UsageError } from '../../scripts/platform-probe/options'

const NOW = Date.parse('2026-11-27T12:00:00Z')

describe('the probe options', () => {
  it('talks to the real platform unless told otherwise, a week ahead for a party of two', () => {
    expect(REAL_PLATFORM).toBe('https://api.resy.com')
    expect(parseOptions(['--venue', '1505'], { PLATFORM_API_KEY: 'k' }, NOW)).toMatchObject({
      baseUrl: 'https://api.resy.com',
      apiKey: 'k',
      venueIds: [1505],
      day: '2026-12-04',
      partySize: 2,
      account: false,
      sandbox: null,
    })
    expect(parseOptions(['--venue=1', '--base-url', 'http://127.0.0.1:9'], { PLATFORM_API_KEY: 'k' }, NOW)).toMatchObject({
      baseUrl: 'http://127.0.0.1:9',
    })
  })

  it('refuses what it must not take', () => {
    const refused =
      (argv: string[], env: Record<string, string> = { PLATFORM_API_KEY: 'k' }) =>
      () =>
        parseOptions(argv, env, NOW)
    expect(refused(['--venue', '1', '--email', 'a@b.c'])).toThrow(/not accepted on the command line/)
    expect(refused(['--venue', '1', '--password=x'])).toThrow(/not accepted on the command line/)
    expect(refused(['--venue', '1'], {})).toThrow(/API key is missing/)
    expect(refused([])).toThrow(/--venue ID .* or --query TEXT/)
    expect(refused(['--venue', '1', '--venue', '2', '--venue', '3', '--venue', '4', '--venue', '5', '--venue', '6'])).toThrow(/at most 5/)
    expect(refused(['--venue', 'x'])).toThrow(UsageError)
    expect(refused(['--venue', '1', '--day', '12/04/2026'])).toThrow(/YYYY-MM-DD/)
    expect(refused(['--venue', '1', '--book'])).toThrow(/unknown flag --book/)
  })
})
