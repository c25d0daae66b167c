// Paired devices as the user sees them: pairing, the list in Settings with when each
// was last seen, revoking (which disconnects the device at once), and choosing to book from the
// device. Identity (codes, credentials) is src/auth/device-credentials.ts; the connection is device-object.ts.
import { completePairing, deviceFromCredential, revokeDeviceCredential, startPairing } from '../auth/device-credentials'
import { type ExecutionSetting, executionSettingOf, hasActiveDevice, listDevices, saveExecutionSetting } from '../db/paired-devices'
import { openRequestIdsOf } from '../db/requests'
import { AppError } from '../errors'
import { type Deps, deviceObject, requestObject } from '../runtime/deps'
import type { DeviceStatus } from './device-object'

export { startPairing }

interface PairedDevice {
  id: string
  name: string
  pairedAt: number
  lastSeenAt: number | null
  revoked: boolean
}

export interface DevicesOverview {
  devices: PairedDevice[]
  setting: ExecutionSetting
  /** Whether a device is connected right now, and what it says about its platform account. */
  status: DeviceStatus
}

export async function devicesOverview(deps: Deps, userId: string): Promise<DevicesOverview> {
  const [rows, setting, status] = await Promise.all([
    listDevices(deps.db, userId),
    executionSettingOf(deps.db, userId),
    deviceObject(deps.env, userId).status(),
  ])
  const devices = rows.map((r) => ({
    id: r.id,
    name: r.name,
    pairedAt: r.createdAt,
    lastSeenAt: r.lastSeenAt,
    revoked: r.revokedAt !== null,
  }))
  return { devices, setting, status }
}

/** The device program's half of pairing: a user code for a credential (shown to the device once). */
export async function pairDevice(deps: Deps, input: { userCode: string; deviceName: string; address: string }) {
  const { credential, device } = await completePairing(deps.db, { ...input, now: deps.now })
  return { credential, deviceId: device.id }
}

/** Hands an authenticated device's WebSocket upgrade to its user's object. */
export async function connectDevice(deps: Deps, credential: string, request: Request): Promise<Response> {
  // The credential first: a device asking without a WebSocket learns whether it was revoked.
  const device = await deviceFromCredential(deps.db, credential, deps.now)
  if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') {
    throw new AppError('invalid_request', 'The credential is valid; connect with a WebSocket.')
  }
  const headers = new Headers(request.headers)
  headers.set('X-Device-Id', device.id)
  headers.set('X-User-Id', device.userId)
  headers.delete('Authorization')
  return deviceObject(deps.env, device.userId).fetch(new Request(request.url, { method: 'GET', headers }))
}

/** What revoking a device means, for its confirmation step; null when it is not an active device of the user's. */
export async function revocationOf(
  deps: Deps,
  userId: string,
  deviceId: string,
): Promise<{ name: string; lastBookingDevice: boolean; cloudFallback: boolean } | null> {
  const [rows, setting] = await Promise.all([listDevices(deps.db, userId), executionSettingOf(deps.db, userId)])
  const active = rows.filter((d) => d.revokedAt === null)
  const device = active.find((d) => d.id === deviceId)
  if (!device) return null
  // Booking from the device with none left pauses the open requests (see revokeDevice), unless
  // the user chose the cloud fallback.
  return {
    name: device.name,
    lastBookingDevice: setting.execution === 'user_device' && active.length === 1,
    cloudFallback: setting.cloudFallback,
  }
}

/** Revokes the device and closes its connection at once. */
export async function revokeDevice(deps: Deps, userId: string, deviceId: string): Promise<void> {
  const revoked = await revokeDeviceCredential(deps.db, userId, deviceId, deps.now)
  if (!revoked) throw new AppError('not_found', 'No such device, or it was revoked already.')
  // The user's choice stays: with no device left, their requests pause (never a silent switch to the cloud).
  await deviceObject(deps.env, userId).disconnect(deviceId)
}

/** "Book from this device" needs a paired device; changing the choice re-checks every open request. */
export async function chooseExecution(deps: Deps, userId: string, setting: ExecutionSetting): Promise<void> {
  if (setting.execution === 'user_device' && !(await hasActiveDevice(deps.db, userId))) {
    throw new AppError('invalid_request', 'Pair a device first: booking from your device needs one.')
  }
  await saveExecutionSetting(deps.db, userId, setting)
  // Each open request subscribes again where its checks now run (paused, if that is an offline device).
  const ids = await openRequestIdsOf(deps.db, { userId })
  await Promise.all(ids.map((id) => requestObject(deps.env, id).rewatch(setting.execution)))
}
