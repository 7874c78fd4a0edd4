/**
 * A DKIM signing key made in the browser with Web Crypto: RSA 2048 (RFC 8301 asks for at
 * least 1024 and recommends 2048; many DNS panels cannot take a 4096-bit key in one record).
 * The private key exists only in this page's memory until the user downloads it.
 */
export const DKIM_KEY_BITS = 2048;

export interface DkimKeyPair {
  /** The SubjectPublicKeyInfo, base64: the p= value of the DNS record. */
  publicKeyBase64: string;
  /** The PKCS#8 private key as PEM, what mail servers (OpenDKIM, Postfix, Exim) load. */
  privateKeyPem: string;
}

function base64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** PEM: base64 in lines of 64 characters between the labels (RFC 7468). */
export function toPem(label: string, der: ArrayBuffer): string {
  const lines = base64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

export async function generateDkimKeyPair(subtle: SubtleCrypto = globalThis.crypto.subtle): Promise<DkimKeyPair> {
  const pair = await subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: DKIM_KEY_BITS, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']);
  const [spki, pkcs8] = await Promise.all([subtle.exportKey('spki', pair.publicKey), subtle.exportKey('pkcs8', pair.privateKey)]);
  return { publicKeyBase64: base64(spki), privateKeyPem: toPem('PRIVATE KEY', pkcs8) };
}

/** A download link's href for the private key; a data: URL, so nothing is uploaded or kept. */
export function pemDownloadUrl(pem: string): string {
  return `data:application/x-pem-file;charset=utf-8,${encodeURIComponent(pem)}`;
}
