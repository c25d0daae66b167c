// The benchmark's settings: environment variables, each with its default and what it changes, in
// one table that the run reads and `npm run bench -- --help` prints (without starting a run).
const SETTINGS = {
  BENCH_ONLY: {
    fallback: 'latency,cadence,release,coalescing,contest,release-contest,crash,scale',
    says: 'the phases to run, comma-separated',
  },
  BENCH_SCALE: { fallback: '10000', says: "active requests at the scale phase's last step (its first is 2,000 at most)" },
  BENCH_OBSERVE_SECONDS: { fallback: '300', says: 'how long each scale step is watched' },
  BENCH_CREATE_MINUTES: {
    fallback: '30',
    says: "the scale phase's time for creating requests (the 10,000 step must reach its target on 2 cores)",
  },
  BENCH_CREATE_CONCURRENCY: { fallback: '50', says: 'create calls in flight during the scale phase' },
  BENCH_SETTLE_SECONDS: {
    fallback: '120',
    says: "the pause between creating a step's requests and watching it (the window sees the steady schedule)",
  },
  BENCH_CONTEST_DROPS: { fallback: '14', says: 'tables dropped per mean and calendar lag in the contest phase' },
  BENCH_CONTEST_LAGS: { fallback: '0,30,120', says: "the contest phase's calendar lags, in seconds" },
  BENCH_CONTEST_DAYS: { fallback: '4', says: "the release contest's release days (the first is day one: no rule learned yet)" },
  BENCH_CONTEST_DAY_SECONDS: {
    fallback: '600',
    says: "the release contest's compressed clock: real seconds per venue day (each venue releases once in that time)",
  },
  BENCH_MERGE: {
    fallback: 'off',
    says: "on: keep the other phases' figures already in bench/results/latest.json (phases run one at a time make one file)",
  },
  BENCH_SERVICE_LOG: { fallback: '', says: 'a file name: every line the services and the sandbox print goes to <file>.<name>' },
} as const

export type BenchSetting = keyof typeof SETTINGS

/** The setting's value in this run: the environment's, or the default. */
export function setting(name: BenchSetting): string {
  return process.env[name] || SETTINGS[name].fallback
}

export const numberSetting = (name: BenchSetting): number => Number(setting(name))

export function benchHelp(): string {
  const rows = (Object.keys(SETTINGS) as BenchSetting[]).map((name) => {
    const { fallback, says } = SETTINGS[name]
    const set = process.env[name] ? `, set to ${process.env[name]}` : ''
    return `  ${name} (default ${fallback === '' ? 'none' : fallback}${set})\n      ${says}`
  })
  return [
    'npm run bench: the sandbox platform and the service under `wrangler dev` on loopback, at the',
    "service's default polling cadence; prints tables and writes bench/results/latest.json. Every phase",
    'takes about two hours on a quiet 2-core machine.',
    '',
    'Settings (environment variables):',
    ...rows,
    '',
    '  BENCH_ONLY=cadence,release BENCH_MERGE=on npm run bench   some phases, merged into latest.json',
  ].join('\n')
}
