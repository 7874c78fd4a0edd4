import { createPrivateKey, createPublicKey, createSign, createVerify } from 'node:crypto';
import { DKIM_KEY_BITS, generateDkimKeyPair, pemDownloadUrl, toPem } from './keys';

describe('generateDkimKeyPair', () => {
  it('makes an RSA 2048 pair whose PEM private key signs what the p= public key verifies', async () => {
    const pair = await generateDkimKeyPair();
    const privateKey = createPrivateKey(pair.privateKeyPem);
    expect(privateKey.asymmetricKeyType).toBe('rsa');
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(DKIM_KEY_BITS);

    const publicKey = createPublicKey({ key: Buffer.from(pair.publicKeyBase64, 'base64'), format: 'der', type: 'spki' });
    const signature = createSign('sha256').update('From: a@example.com').sign(privateKey);
    expect(createVerify('sha256').update('From: a@example.com').verify(publicKey, signature)).toBe(true);
  });

  it('writes PEM in 64-character lines between the labels', async () => {
    const pair = await generateDkimKeyPair();
    const lines = pair.privateKeyPem.trimEnd().split('\n');
    expect(lines[0]).toBe('-----BEGIN PRIVATE KEY-----');
    expect(lines.at(-1)).toBe('-----END PRIVATE KEY-----');
    expect(lines.slice(1, -2).every((line) => line.length === 64)).toBe(true);
    expect(pair.publicKeyBase64).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it('makes a new key each time', async () => {
    const [first, second] = await Promise.all([generateDkimKeyPair(), generateDkimKeyPair()]);
    expect(first.publicKeyBase64).not.toBe(second.publicKeyBase64);
  });
});

describe('toPem and pemDownloadUrl', () => {
  it('round-trips the PEM text through the data: URL', () => {
    const pem = toPem('PRIVATE KEY', new Uint8Array([1, 2, 3, 250]).buffer);
    expect(pem).toBe('-----BEGIN PRIVATE KEY-----\nAQID+g==\n-----END PRIVATE KEY-----\n');
    const url = pemDownloadUrl(pem);
    expect(url.startsWith('data:application/x-pem-file;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(url.slice(url.indexOf(',') + 1))).toBe(pem);
  });
});
