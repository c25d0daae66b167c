// Where the device keeps what only it may know: its credential for the service, and the
// platform sign-in (token and card id) that never leaves it. One JSON file, mode 0600, in a
// 0700 folder; the work journal beside it, also 0600.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { JournalEntry, JournalStore } from './journal'
import type { DeviceSession } from './work'

export interface PlatformConfig {
  baseUrl: string
  apiKey: string
  userAgent: string | undefined
  /** The machine's address the platform's calls leave from (`--local-address`); absent: the system's choice. */
  localAddress?: string | undefined
}

export interface DeviceFile {
  service: string
  deviceId: string
  deviceName: string
  /** spd_…: the service's credential for this device. */
  credential: string
  platform?: PlatformConfig
  /** The platform sign-in; absent until `tablewatch-device login`. */
  session?: DeviceSession
}

export function deviceHome(flag: string | undefined): string {
  if (flag) return flag
  if (process.env.TABLEWATCH_DEVICE_HOME) return process.env.TABLEWATCH_DEVICE_HOME
  const config = process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config')
  return join(config, 'tablewatch-device')
}

const devicePath = (home: string) => join(home, 'device.json')

/** Written to a temporary file first and renamed, so a crash never leaves half a file. */
function writePrivate(path: string, value: unknown) {
  const temporary = `${path}.tmp`
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 })
  chmodSync(temporary, 0o600)
  renameSync(temporary, path)
}

export function readDevice(home: string): DeviceFile | null {
  const path = devicePath(home)
  if (!existsSync(path)) return null
  return JSON.parse(readFileSync(path, 'utf8')) as DeviceFile
}

export function writeDevice(home: string, file: DeviceFile): string {
  mkdirSync(home, { recursive: true, mode: 0o700 })
  chmodSync(home, 0o700)
  writePrivate(devicePath(home), file)
  return devicePath(home)
}

export function fileJournal(home: string): JournalStore {
  const path = join(home, 'journal.json')
  return {
    load: () => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, JournalEntry>) : {}),
    save: (entries) => writePrivate(path, entries),
  }
}
