import { randomBytes } from 'node:crypto'

/** Cryptographic random bytes; injectable so tests can predict states without weakening the real source. */
export type RandomSource = (size: number) => Uint8Array

export const cryptoRandomSource: RandomSource = (size) => randomBytes(size)

/** Bytes of randomness in an OAuth `state`: 256 bits, twice the 128 that make guessing hopeless. */
export const STATE_BYTES = 32

/** A fresh OAuth `state`, base64url without padding. */
export function createOAuthState(random: RandomSource = cryptoRandomSource): string {
  const bytes = random(STATE_BYTES)
  if (bytes.length < 16) throw new Error('The random source returned fewer than 128 bits.')
  return Buffer.from(bytes).toString('base64url')
}
