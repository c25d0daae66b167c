// A subscription's name on the settings page: browser and device as the User-Agent says them
// when push is turned on ("Safari on iPhone"), so a diner can tell which one to remove.

const BROWSERS: [RegExp, string][] = [
  [/Edg(A|iOS)?\//, 'Edge'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
]

const DEVICES: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Macintosh|Mac OS X/, 'Mac'],
  [/Windows/, 'Windows'],
  [/Linux/, 'Linux'],
]

const first = (table: [RegExp, string][], ua: string) => table.find(([pattern]) => pattern.test(ua))?.[1]

export function deviceLabel(userAgent: string | undefined): string {
  const ua = userAgent ?? ''
  const browser = first(BROWSERS, ua)
  const device = first(DEVICES, ua)
  if (browser && device) return `${browser} on ${device}`
  return browser ?? device ?? 'A browser'
}
