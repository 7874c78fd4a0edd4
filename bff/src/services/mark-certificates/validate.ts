import { createHash, X509Certificate } from 'node:crypto';
import type { Check, MarkCertificate } from '@bimi/contracts/tools';
import { CERTIFICATE_EXPIRING_WITHIN_DAYS } from '@bimi/contracts/monitors';
import { fail, info, pass, scoreChecks, warn } from '@bimi/email-auth/checks';
import type { RootStore } from '@postalsys/vmc';
import { certInfo } from '@postalsys/vmc/lib/cert-info';
import { validatedChain } from '@postalsys/vmc/lib/validated-chain';
import { LRUCache } from 'lru-cache';
import { LOGO_MAX_BYTES, readCertificateLogo, type CertificateLogo } from './logotype';
import { MAX_PEM_BLOCKS, splitPemBundle, type PemBundle } from './pem-bundle';
import { isoDay } from '../../lib/iso';

/**
 * The mark-certificate validator: a VMC or CMC bundle judged the way mail providers do, one check
 * per requirement, against the roots it is given. Node only (X.509 through node:crypto); it reads
 * untrusted files, so the bff runs it in a worker thread (services/untrusted-files), never on the
 * event loop.
 */

/** The EKU every mark certificate carries (id-kp-BrandIndicatorforMessageIdentification). */
export const BIMI_KEY_PURPOSE = '1.3.6.1.5.5.7.3.31';
const DAY_MS = 86_400_000;

/** The mark types of the BIMI certificate profiles: the first two make a VMC, the last two a CMC. */
const MARK_TYPES: Record<string, { certificate: 'VMC' | 'CMC'; words: string }> = {
  'Registered Mark': { certificate: 'VMC', words: 'a trademark registered with a trademark office' },
  'Government Mark': { certificate: 'VMC', words: 'a mark granted by a government body' },
  'Prior Use Mark': { certificate: 'CMC', words: 'a logo shown in use on the domain for at least a year' },
  'Modified Registered Mark': { certificate: 'CMC', words: 'a modified form of a registered trademark' },
};

export interface MarkCertificateReport {
  checks: Check[];
  score: number;
  details: MarkCertificate | undefined;
}

export interface MarkCertificateInput {
  pem: string;
  /** The roots the chain must lead to (roots.ts markRootStore). */
  rootStore: RootStore;
  /** The domain the certificate must name (the BIMI domain); skipped when checking a file alone. */
  domain?: string;
  /** The SVG published at the BIMI record's l=, which must be the logo in the certificate. */
  publishedSvg?: Buffer;
  now?: Date;
}

const CHAIN_FAILURES: Record<string, { detail: string; fix: string }> = {
  SELF_SIGNED_CERT_IN_CHAIN: {
    detail: 'The certificate does not lead to a root of a mark-certificate issuer (DigiCert, GlobalSign, SSL.com, Entrust): mail providers will not trust it.',
    fix: 'Publish the certificate issued by an authorized mark-certificate issuer, followed by its intermediate certificates, in one PEM file.',
  },
  INVALID_CHAIN: {
    detail: 'The certificates in the file are not in order: each one must be signed by the next.',
    fix: 'Put the mark certificate first, then each intermediate certificate in order, as your issuer delivered them.',
  },
  CERTIFICATE_VERIFICATION_ERROR: {
    detail: 'An intermediate certificate in the file is expired or is not a certificate authority.',
    fix: 'Download the current certificate bundle from your issuer and publish it whole.',
  },
};

function errorCodeOf(error: unknown): string {
  return (error as { code?: string })?.code ?? 'UNKNOWN';
}

/** A moment inside the leaf's validity, so trust is judged apart from expiry (reported on its own). */
function momentForChain(leaf: X509Certificate, now: Date): Date {
  const from = new Date(leaf.validFrom).getTime();
  const to = new Date(leaf.validTo).getTime();
  return now.getTime() >= from && now.getTime() <= to ? now : new Date(from + (to - from) / 2);
}

function checkChain(certs: { pem: string; cert: X509Certificate }[], rootStore: RootStore, now: Date, issuer: string): Check {
  try {
    validatedChain(certs, rootStore, momentForChain(certs[0]!.cert, now));
  } catch (error) {
    const code = errorCodeOf(error);
    // The EKU is asserted after the chain is verified: this code means the chain itself is trusted.
    if (code !== 'BIMI_EXT_KEY_MISSING') {
      const failure = CHAIN_FAILURES[code] ?? { detail: `The chain could not be verified: ${(error as Error).message}.`, fix: CHAIN_FAILURES.SELF_SIGNED_CERT_IN_CHAIN!.fix };
      const onlyLeaf = certs.length === 1 ? ' The file holds only the mark certificate, without the intermediate certificates that link it to the root.' : '';
      return fail('vmc.chain', 'Not issued by a trusted mark-certificate authority', failure.detail + onlyLeaf, failure.fix);
    }
  }
  return pass('vmc.chain', 'Issued by a trusted mark-certificate authority', `The certificate chains to a mark-certificate root through ${issuer}.`);
}

function checkValidity(leaf: X509Certificate, now: Date): { check: Check; daysLeft: number } {
  const from = new Date(leaf.validFrom);
  const to = new Date(leaf.validTo);
  const daysLeft = Math.floor((to.getTime() - now.getTime()) / DAY_MS);
  const until = isoDay(to.getTime());
  if (now < from) {
    return {
      daysLeft,
      check: fail('vmc.validity', 'Certificate not valid yet', `It becomes valid on ${isoDay(from.getTime())}.`, 'Wait for the start date or publish the certificate that is valid now.'),
    };
  }
  if (now > to) {
    return {
      daysLeft,
      check: fail(
        'vmc.validity',
        'Certificate expired',
        `It expired on ${until}; mail providers stop showing the logo.`,
        'Renew the certificate with your issuer and publish the new PEM file at the same address.',
      ),
    };
  }
  // The monitors' alert and list say "expiring" from the same day on.
  if (daysLeft <= CERTIFICATE_EXPIRING_WITHIN_DAYS) {
    return {
      daysLeft,
      check: warn(
        'vmc.validity',
        'Certificate expires soon',
        `It expires on ${until}, in ${daysLeft} day${daysLeft === 1 ? '' : 's'}.`,
        'Renew it now; issuers need time to re-verify the mark.',
      ),
    };
  }
  // "Within its dates", not "valid": beside a chain that fails, "Certificate is valid" said the opposite of the answer (issue 32).
  return { daysLeft, check: pass('vmc.validity', 'Within its validity dates', `Valid until ${until} (${daysLeft} days left).`) };
}

function checkKeyPurpose(leaf: X509Certificate): Check {
  const purposes = Array.isArray(leaf.keyUsage) ? leaf.keyUsage : [];
  return purposes.includes(BIMI_KEY_PURPOSE)
    ? pass('vmc.key-purpose', 'Made for BIMI', `The certificate carries the BIMI key purpose (${BIMI_KEY_PURPOSE}).`)
    : fail(
        'vmc.key-purpose',
        'Not a mark certificate',
        `The certificate lacks the BIMI key purpose (${BIMI_KEY_PURPOSE})${purposes.length ? `; it is made for ${purposes.join(', ')} (a website certificate?)` : ''}.`,
        'Publish a Verified Mark Certificate or Common Mark Certificate from an authorized issuer, not a website (TLS) certificate.',
      );
}

function checkDomain(subjectAltNames: string[], domain: string): Check {
  const wanted = domain.toLowerCase();
  const names = subjectAltNames.map((name) => name.toLowerCase());
  if (names.includes(wanted)) return pass('vmc.domain', 'Names this domain', `The certificate is issued for ${wanted}.`);
  const parent = names.find((name) => wanted.endsWith(`.${name}`));
  if (parent) return pass('vmc.domain', 'Names this domain', `The certificate is issued for ${parent}, which covers its subdomain ${wanted}.`);
  return fail(
    'vmc.domain',
    'Issued for another domain',
    `The certificate names ${names.join(', ') || 'no domain'}, not ${wanted}; mail providers will not show the logo for ${wanted}.`,
    `Have the certificate issued (or reissued) with ${wanted} among its domains.`,
  );
}

function checkMarkType(markType: string | undefined): Check {
  if (!markType) {
    return warn(
      'vmc.mark-type',
      'No mark type named',
      'The certificate does not say which kind of mark it verifies; certificates issued before 2023 lack it.',
      'Renew with your issuer: current certificates name the mark type (Registered, Government, Prior Use or Modified Registered Mark).',
    );
  }
  const known = MARK_TYPES[markType];
  if (!known)
    return fail('vmc.mark-type', 'Unknown mark type', `The mark type "${markType}" is none of those BIMI recognizes.`, 'Ask your issuer for a certificate with a recognized mark type.');
  return pass('vmc.mark-type', `${markType} (${known.certificate})`, `The certificate verifies ${known.words}.`);
}

function digest(algorithm: string, data: Buffer): Buffer | undefined {
  try {
    return createHash(algorithm).update(data).digest();
  } catch {
    return undefined;
  }
}

interface ParsedBundle {
  certs: { pem: string; cert: X509Certificate }[];
  about: ReturnType<typeof certInfo>;
  logo: CertificateLogo;
}

const ISSUED_FILE_FIX = 'Publish the PEM file your issuer delivered: the mark certificate followed by its intermediate certificates.';

/** Why a file is not a certificate bundle the tool reads, as the one failed check of the answer. */
function unreadableBundleCheck(problem: Exclude<PemBundle, { ok: true }> | { ok: false; problem: 'not-x509' }): Check {
  switch (problem.problem) {
    case 'too-large':
      return fail(
        'vmc.pem',
        'Certificate file too large',
        `The file holds ${problem.characters.toLocaleString('en-US')} characters; a mark-certificate file is 5 to 40 KB, and the tool reads at most 64 KB.`,
        ISSUED_FILE_FIX,
      );
    case 'too-many-blocks':
      return fail(
        'vmc.pem',
        'Too many PEM blocks',
        `The file holds ${problem.blocks.toLocaleString('en-US')} PEM blocks (-----BEGIN lines); a mark-certificate file holds the certificate and its intermediates, at most ${MAX_PEM_BLOCKS}, so the tool did not read it.`,
        ISSUED_FILE_FIX,
      );
    case 'not-a-certificate':
      return /PRIVATE KEY/.test(problem.label)
        ? fail(
            'vmc.pem',
            'The file holds a private key',
            `The file holds a ${problem.label} block: anyone who fetches it can use the key.`,
            'Remove the key from the file at once and ask your issuer to reissue the certificate with a new key.',
          )
        : fail('vmc.pem', 'Not a certificate file', `The file holds a ${problem.label} block; a certificate file holds only CERTIFICATE blocks.`, ISSUED_FILE_FIX);
    case 'unterminated':
      return fail('vmc.pem', 'Not a certificate file', `A -----BEGIN ${problem.label}----- line has no matching -----END line.`, ISSUED_FILE_FIX);
    default:
      return fail('vmc.pem', 'Not a certificate file', 'The file holds no readable PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----).', ISSUED_FILE_FIX);
  }
}

/**
 * The parsed form of recently checked bundles, by the SHA-256 of their text. Parsing (the X.509
 * objects, the ASN.1 of the logotype extension and its gzipped logo) is most of a validation's CPU,
 * ~2 ms, and depends on the bytes alone; the BIMI and VMC tools check the same published
 * certificate again and again. Everything that depends on the moment, the domain or the published
 * logo is still checked on every call. Each worker thread keeps its own. Only bundles read whole
 * are kept: at most 8 certificates of a 64 KB file and a 32 KB logo each, so 32 of them stay
 * within a few MB; a refused file is never kept.
 */
const parsedBundles = new LRUCache<string, ParsedBundle>({ max: 32 });

function parseBundle(pem: string): ParsedBundle | Check {
  const key = createHash('sha256').update(pem).digest('base64');
  const known = parsedBundles.get(key);
  if (known) return known;
  const split = splitPemBundle(pem);
  if (!split.ok) return unreadableBundleCheck(split);
  let certs: ParsedBundle['certs'];
  try {
    certs = split.certificates.map((text) => ({ pem: text, cert: new X509Certificate(text) }));
  } catch {
    return unreadableBundleCheck({ ok: false, problem: 'not-x509' });
  }
  const leaf = certs[0]!.cert;
  const parsed: ParsedBundle = { certs, about: certInfo(leaf), logo: readCertificateLogo(leaf.raw) };
  if (parsed.logo.status !== 'too-large') parsedBundles.set(key, parsed);
  return parsed;
}

function checkLogotype(logo: CertificateLogo): Check {
  switch (logo.status) {
    case 'absent':
      return fail(
        'vmc.logotype',
        'No logo in the certificate',
        'A mark certificate carries the logo it verifies (the logotype extension); this one does not.',
        'Publish the mark certificate itself, not another certificate from the bundle.',
      );
    case 'too-large':
      return fail(
        'vmc.logotype',
        'Embedded logo too large',
        `The logo in the certificate inflates to more than ${LOGO_MAX_BYTES / 1024} KB; BIMI logos are at most ${LOGO_MAX_BYTES / 1024} KB, so the tool stopped reading it.`,
        'Ask your issuer to reissue the certificate with a logo within 32 KB.',
      );
    case 'unreadable':
      return fail(
        'vmc.logotype',
        'Embedded logo unreadable',
        'The logotype extension does not hold a gzip-compressed logo in a base64 data: URL, as the BIMI certificate profiles require.',
        'Ask your issuer to reissue the certificate.',
      );
    default:
      return logo.validHash === false
        ? fail('vmc.logotype', 'Embedded logo is damaged', "The logo in the certificate does not match the certificate's own hash of it.", 'Ask your issuer to reissue the certificate.')
        : pass(
            'vmc.logotype',
            'Logo embedded in the certificate',
            `The certificate carries an ${logo.mediaType ?? 'image'} logo${logo.hashAlgo ? ` (${logo.hashAlgo} hash verified)` : ''}.`,
          );
  }
}

/** Validates a VMC or CMC bundle the way mail providers do, one check per requirement. */
export function validateMarkCertificate(input: MarkCertificateInput): MarkCertificateReport {
  const now = input.now ?? new Date();
  const parsed = parseBundle(input.pem);
  if (!('certs' in parsed)) return { checks: [parsed], score: 0, details: undefined };
  const { certs, about, logo } = parsed;
  const leaf = certs[0]!.cert;
  const issuer = about.issuer.commonName ?? about.issuer.organizationName ?? 'an unnamed issuer';
  const checks: Check[] = [pass('vmc.pem', 'Certificate file readable', `${certs.length} certificate${certs.length === 1 ? '' : 's'} in the file.`)];
  checks.push(checkChain(certs, input.rootStore, now, issuer));
  const validity = checkValidity(leaf, now);
  checks.push(validity.check);
  checks.push(checkKeyPurpose(leaf));
  checks.push(checkLogotype(logo));

  if (input.publishedSvg && logo.status !== 'absent' && logo.hashValue && logo.hashAlgo) {
    const published = digest(logo.hashAlgo, input.publishedSvg);
    checks.push(
      published?.equals(logo.hashValue)
        ? pass('vmc.logo-match', 'Published logo matches the certificate', 'The SVG at the BIMI record’s l= is byte for byte the logo in the certificate.')
        : fail(
            'vmc.logo-match',
            'Published logo differs from the certificate',
            'The SVG at the BIMI record’s l= is not the logo in the certificate; mail providers will not show it.',
            'Publish exactly the SVG file you submitted for the certificate (even whitespace counts).',
          ),
    );
  }

  if (input.domain) checks.push(checkDomain(about.subjectAltName, input.domain));
  const markType = about.subject.markType;
  // A mark certificate names its mark type; one that is not issued as one (no BIMI key purpose, or no
  // chain to a mark-certificate root: self-signed) has no mark type to miss, and no certificate type.
  const issuedAsMarkCertificate = ['vmc.key-purpose', 'vmc.chain'].every((id) => checks.some((check) => check.id === id && check.status === 'pass'));
  if (issuedAsMarkCertificate) checks.push(checkMarkType(markType));
  if (certs.length === 1 && checks.some((check) => check.id === 'vmc.chain' && check.status === 'pass')) {
    checks.push(info('vmc.bundle', 'No intermediate certificates', 'The file holds only the mark certificate; some mail providers need the intermediates in the same file.'));
  }

  const details: MarkCertificate = {
    // Only a certificate issued for BIMI is a VMC or CMC: one without the BIMI key purpose (a website
    // certificate) or without a chain to a mark-certificate root (self-signed) has no certificate type,
    // so the page never says "not valid" and "VMC" together (issues 17, 32). A BIMI one without a
    // mark type is a pre-2023 VMC.
    certificateType: !issuedAsMarkCertificate ? undefined : markType ? MARK_TYPES[markType]?.certificate : 'VMC',
    markType,
    organization: about.subject.organizationName,
    commonName: about.subject.commonName,
    issuer,
    issuerOrganization: about.issuer.organizationName,
    serialNumber: about.serialNumber,
    fingerprint: about.fingerprint,
    validFrom: about.validFrom,
    validTo: about.validTo,
    daysLeft: validity.daysLeft,
    // A copy: the parsed bundle is shared by later validations.
    subjectAltNames: [...about.subjectAltName],
    trademarkOffice: about.subject.trademarkOfficeName,
    trademarkCountry: about.subject.trademarkCountryOrRegionName,
    trademarkRegistration: about.subject.trademarkRegistration,
    wordMark: about.subject.wordMark,
    chainLength: certs.length,
    logoDataUrl: logo.status === 'read' ? `data:${logo.mediaType ?? 'image/svg+xml'};base64,${logo.logo.toString('base64')}` : undefined,
    logoHash: logo.status !== 'absent' && logo.hashValue ? `${logo.hashAlgo}:${logo.hashValue.toString('hex')}` : undefined,
  };
  return { checks, score: scoreChecks(checks), details };
}
