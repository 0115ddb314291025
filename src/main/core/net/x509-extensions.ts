import type { X509Certificate } from 'node:crypto'

/**
 * The X.509v3 extensions of a certificate that node:crypto's X509Certificate does not expose (it gives `ca`, the
 * extended key usage as `keyUsage`, and no path length, key usage bits or name constraints), read from its DER
 * (RFC 5280 §4.1: tbsCertificate's `[3] EXPLICIT Extensions`, each `SEQUENCE { extnID, critical BOOLEAN DEFAULT
 * FALSE, extnValue OCTET STRING }`). Reads only; the certificate parsed already, so malformed DER throws.
 */
export interface CertificateExtensions {
  /** 1 for v1, 3 for v3 (§4.1.2.1). */
  readonly version: number
  /** §4.2.1.9; undefined when absent. */
  readonly basicConstraints: { readonly ca: boolean; readonly pathLength: number | undefined } | undefined
  /** §4.2.1.3, the bits set by name; undefined when absent. */
  readonly keyUsage: ReadonlySet<KeyUsageBit> | undefined
  /** §4.2.1.12, the purposes' OIDs; undefined when absent. */
  readonly extendedKeyUsage: readonly string[] | undefined
  /** Every extension's OID with its criticality, in the certificate's order. */
  readonly all: ReadonlyArray<{ readonly oid: string; readonly critical: boolean }>
}

export const KEY_USAGE_BITS = [
  'digitalSignature',
  'nonRepudiation',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'keyCertSign',
  'cRLSign',
  'encipherOnly',
  'decipherOnly',
] as const
export type KeyUsageBit = (typeof KEY_USAGE_BITS)[number]

export const OID = {
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extendedKeyUsage: '2.5.29.37',
  nameConstraints: '2.5.29.30',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  anyExtendedKeyUsage: '2.5.29.37.0',
} as const

interface Tlv {
  readonly tag: number
  /** Where the content starts and ends (exclusive). */
  readonly start: number
  readonly end: number
}

function tlvAt(der: Uint8Array, offset: number, limit: number): Tlv {
  if (offset + 2 > limit) throw new Error('DER: truncated')
  const tag = der[offset] as number
  let length = der[offset + 1] as number
  let start = offset + 2
  if (length & 0x80) {
    const count = length & 0x7f
    if (count === 0 || count > 4 || start + count > limit) throw new Error('DER: bad length')
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + (der[start + i] as number)
    start += count
  }
  if (start + length > limit) throw new Error('DER: truncated')
  return { tag, start, end: start + length }
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const found: Tlv[] = []
  for (let at = parent.start; at < parent.end;) {
    const child = tlvAt(der, at, parent.end)
    found.push(child)
    at = child.end
  }
  return found
}

function oidText(der: Uint8Array, tlv: Tlv): string {
  const parts: number[] = []
  let value = 0
  for (let at = tlv.start; at < tlv.end; at++) {
    const byte = der[at] as number
    value = value * 128 + (byte & 0x7f)
    if ((byte & 0x80) === 0) {
      if (parts.length === 0)
        parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80)
      else parts.push(value)
      value = 0
    }
  }
  return parts.join('.')
}

function integer(der: Uint8Array, tlv: Tlv): number {
  let value = 0
  for (let at = tlv.start; at < tlv.end; at++) value = value * 256 + (der[at] as number)
  return value
}

/** The extensions of `certificate` (see CertificateExtensions). */
export function extensionsOf(certificate: X509Certificate): CertificateExtensions {
  const der = new Uint8Array(certificate.raw)
  const outer = tlvAt(der, 0, der.length)
  const tbs = children(der, outer)[0]
  if (tbs === undefined) throw new Error('DER: no tbsCertificate')
  const fields = children(der, tbs)
  const versionField = fields.find((field) => field.tag === 0xa0)
  const versionInteger = versionField === undefined ? undefined : children(der, versionField)[0]
  const version = versionInteger === undefined ? 1 : integer(der, versionInteger) + 1
  const wrapper = fields.find((field) => field.tag === 0xa3)
  const list = wrapper === undefined ? [] : children(der, children(der, wrapper)[0] ?? wrapper)
  let basicConstraints: CertificateExtensions['basicConstraints']
  let keyUsage: Set<KeyUsageBit> | undefined
  let extendedKeyUsage: string[] | undefined
  const all: Array<{ oid: string; critical: boolean }> = []
  for (const extension of list) {
    const parts = children(der, extension)
    const [id] = parts
    const value = parts.at(-1)
    if (id === undefined || value === undefined || value.tag !== 0x04) throw new Error('DER: bad extension')
    const critical = parts.length === 3 && parts[1]?.tag === 0x01 && der[parts[1].start] !== 0
    const oid = oidText(der, id)
    all.push({ oid, critical })
    const inner = tlvAt(der, value.start, value.end)
    if (oid === OID.basicConstraints) {
      const items = children(der, inner)
      const flag = items.find((item) => item.tag === 0x01)
      const length = items.find((item) => item.tag === 0x02)
      basicConstraints = {
        ca: flag !== undefined && der[flag.start] !== 0,
        pathLength: length === undefined ? undefined : integer(der, length),
      }
    } else if (oid === OID.keyUsage) {
      keyUsage = new Set()
      // A BIT STRING: its first byte counts the unused bits; bit 0 is the first byte's high bit (§4.2.1.3).
      KEY_USAGE_BITS.forEach((name, bit) => {
        const byte = der[inner.start + 1 + Math.floor(bit / 8)]
        if (
          inner.start + 1 + Math.floor(bit / 8) < inner.end &&
          byte !== undefined &&
          byte & (0x80 >> (bit % 8))
        )
          keyUsage?.add(name)
      })
    } else if (oid === OID.extendedKeyUsage) {
      extendedKeyUsage = children(der, inner).map((item) => oidText(der, item))
    }
  }
  return { version, basicConstraints, keyUsage, extendedKeyUsage, all }
}
