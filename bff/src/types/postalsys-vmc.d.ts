// @postalsys/vmc ships no types; these cover the parts the mark-certificate validator calls.
declare module '@postalsys/vmc' {
  import type { X509Certificate } from 'node:crypto';
  export class RootStore {
    static create(): RootStore;
    rootCerts: X509Certificate[];
    addCert(pem: string): boolean;
  }
}

declare module '@postalsys/vmc/lib/tools' {
  import type { X509Certificate } from 'node:crypto';
  export function getCerts(bundle: string | Buffer): { pem: string; cert: X509Certificate }[] | false;
  export function parseSubject(subject: string): Record<string, string>;
}

declare module '@postalsys/vmc/lib/validated-chain' {
  import type { X509Certificate } from 'node:crypto';
  import type { RootStore } from '@postalsys/vmc';
  /** Throws an Error with `code` (INVALID_CHAIN, SELF_SIGNED_CERT_IN_CHAIN, CERTIFICATE_VERIFICATION_ERROR, BIMI_EXT_KEY_MISSING). */
  export function validatedChain(certs: { pem: string; cert: X509Certificate }[], rootStore: RootStore, now?: Date): { pem: string; cert: X509Certificate }[];
}

declare module '@postalsys/vmc/lib/parse-vmc' {
  /** Throws an Error with code INVALID_LOGOTYPE_EXT when the certificate carries no logo. */
  export function parseVMC(der: Buffer): Promise<{
    mediaType?: string;
    hashAlgo?: string;
    hashValue?: Buffer;
    logoFile?: Buffer;
    validHash?: boolean;
  }>;
}

declare module '@postalsys/vmc/lib/cert-info' {
  import type { X509Certificate } from 'node:crypto';
  export function certInfo(cert: X509Certificate): {
    subject: Record<string, string>;
    subjectAltName: string[];
    fingerprint: string;
    serialNumber: string;
    validFrom: string | null;
    validTo: string | null;
    issuer: Record<string, string>;
  };
}
