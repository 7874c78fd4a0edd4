import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { SVG_MAX_BYTES } from '@bimi/email-auth/svg';
import { AsnParser } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { LogotypeExtn } from '@peculiar/asn1-x509-logotype';

/**
 * The logo a mark certificate carries (RFC 3709 logotype extension, as the BIMI profiles use it: a
 * gzipped SVG in a data: URL, with its hash). Read here rather than by @postalsys/vmc's parseVMC,
 * which inflates without a limit: 62 KB of certificate inflated to 33 MB, and the answer to 46 MB.
 * BIMI logos are at most 32 KB, so inflating stops there.
 */

const LOGOTYPE_EXTENSION = '1.3.6.1.5.5.7.1.12';
export const LOGO_MAX_BYTES = SVG_MAX_BYTES;

const HASH_ALGORITHMS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

interface LogoHeader {
  mediaType: string | undefined;
  hashAlgo: string | undefined;
  hashValue: Buffer | undefined;
}

export type CertificateLogo =
  | { status: 'absent' }
  /** The logo inflates past LOGO_MAX_BYTES: not read further, not kept. */
  | ({ status: 'too-large' } & LogoHeader)
  | ({ status: 'unreadable' } & LogoHeader)
  | ({ status: 'read'; logo: Buffer; validHash: boolean | undefined } & LogoHeader);

function hashMatches(logo: Buffer, algorithm: string | undefined, expected: Buffer | undefined): boolean | undefined {
  if (!algorithm || !expected) return undefined;
  return createHash(algorithm).update(logo).digest().equals(expected);
}

/** The logo in a certificate (its DER), inflated to at most LOGO_MAX_BYTES. Never throws. */
export function readCertificateLogo(der: Buffer): CertificateLogo {
  let header: LogoHeader;
  let uri: string | undefined;
  try {
    const certificate = AsnParser.parse(der, Certificate);
    const extension = certificate.tbsCertificate.extensions?.find((candidate) => candidate.extnID === LOGOTYPE_EXTENSION);
    if (!extension) return { status: 'absent' };
    const details = AsnParser.parse(extension.extnValue, LogotypeExtn).subjectLogo?.direct?.image?.[0]?.imageDetails;
    if (!details) return { status: 'absent' };
    const hash = details.logotypeHash?.[0];
    header = {
      mediaType: details.mediaType,
      hashAlgo: hash ? HASH_ALGORITHMS[hash.hashAlg.algorithm] : undefined,
      hashValue: hash ? Buffer.from(hash.hashValue.buffer) : undefined,
    };
    uri = details.logotypeURI?.[0];
  } catch {
    return { status: 'absent' };
  }
  const comma = uri?.indexOf(',') ?? -1;
  if (!uri?.startsWith('data:') || comma < 0 || !/;base64$/i.test(uri.slice(0, comma))) return { status: 'unreadable', ...header };
  let logo: Buffer;
  try {
    logo = gunzipSync(Buffer.from(uri.slice(comma + 1), 'base64'), { maxOutputLength: LOGO_MAX_BYTES });
  } catch (error) {
    return { status: (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too-large' : 'unreadable', ...header };
  }
  return { status: 'read', logo, validHash: hashMatches(logo, header.hashAlgo, header.hashValue), ...header };
}
