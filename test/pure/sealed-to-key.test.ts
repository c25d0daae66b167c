// A session a paired device hands over is sealed to the one-time key of that sign-in: only that
// key opens it, only for that sign-in, and a changed byte is refused.
import { describe, expect, it } from 'vitest'
import { newReceiverKey, openSealedToKey, sealToKey } from '../../src/lib/sealed-to-key'

const session = JSON.stringify({ authToken: 'eyJ.secret.token', refreshToken: 'refresh-secret' })

describe('sealing a session to a sign-in’s key', () => {
  it('opens with the sign-in’s private key and context, and carries nothing readable', async () => {
    const receiver = await newReceiverKey()
    const sealed = await sealToKey(receiver.publicKey, session, 'platform-sign-in usr_a s1')
    expect(JSON.stringify(sealed)).not.toContain('secret')
    expect(await openSealedToKey(receiver.privateKey, sealed, 'platform-sign-in usr_a s1')).toBe(session)
  })

  it('does not open for another sign-in, another key, or a changed ciphertext', async () => {
    const receiver = await newReceiverKey()
    const other = await newReceiverKey()
    const sealed = await sealToKey(receiver.publicKey, session, 'platform-sign-in usr_a s1')
    await expect(openSealedToKey(receiver.privateKey, sealed, 'platform-sign-in usr_b s1')).rejects.toThrow()
    await expect(openSealedToKey(other.privateKey, sealed, 'platform-sign-in usr_a s1')).rejects.toThrow()
    const flipped = `${sealed.ciphertext.slice(0, 4)}${sealed.ciphertext[4] === 'A' ? 'B' : 'A'}${sealed.ciphertext.slice(5)}`
    await expect(openSealedToKey(receiver.privateKey, { ...sealed, ciphertext: flipped }, 'platform-sign-in usr_a s1')).rejects.toThrow()
  })

  it('seals each time with a fresh key of its own', async () => {
    const receiver = await newReceiverKey()
    const [a, b] = await Promise.all([sealToKey(receiver.publicKey, session, 'c'), sealToKey(receiver.publicKey, session, 'c')])
    expect(a.epk).not.toEqual(b.epk)
    expect(a.ciphertext).not.toBe(b.ciphertext)
  })
})
