import type { CertificateId } from '@bimi/catalog/products';
import { PENDING_TRADEMARK_START } from '@bimi/catalog/facts';

/** What each certificate page says: the mark it proves, who may buy it, and how DigiCert validates it. */
export interface CertificateCopy {
  /** The kind of mark, in the words of the mark-verifying authorities. */
  markType: string;
  whatItIs: string;
  whoMayBuy: string[];
  /** The step that differs between certificates; the shared steps are in VALIDATION_STEPS. */
  markValidation: string;
  mailboxes: string[];
  checkmark: boolean;
}

const LOGO_MAILBOXES = ['Gmail (web and app)', 'Apple Mail on iOS 16, iPadOS 16 and macOS Ventura or later', 'Yahoo Mail and AOL', 'Fastmail', 'La Poste'];

export const CERTIFICATE_COPY: Record<CertificateId, CertificateCopy> = {
  'verified-mark-certificate': {
    markType: 'Registered trademark',
    whatItIs:
      'A Verified Mark Certificate (VMC) is a digital certificate, issued by DigiCert, that binds your logo to your sending domains after checking that the logo is your registered trademark. With BIMI published, supporting mailboxes show the logo beside every message that passes DMARC, and Gmail adds a blue verified checkmark.',
    whoMayBuy: [
      'Organizations whose logo is registered as a word-and-design or design trademark with an accepted trademark office (for example USPTO, EUIPO, UKIPO, CIPO, IP Australia, JPO, DPMA, INPI and others).',
      'The logo in the certificate must match the registered mark; a changed version needs a Common Mark Certificate for a modified registered mark.',
      PENDING_TRADEMARK_START,
    ],
    markValidation: 'DigiCert checks your trademark registration in the trademark office’s database and that your organization owns or is licensed to use it.',
    mailboxes: LOGO_MAILBOXES,
    checkmark: true,
  },
  'common-mark-certificate': {
    markType: 'Prior use mark',
    whatItIs:
      'A Common Mark Certificate (CMC) lets you show a logo that is not a registered trademark. Instead of a trademark, DigiCert checks that your organization has shown the logo publicly on its website for at least twelve months. Gmail displays the logo, without the verified checkmark.',
    whoMayBuy: [
      'Organizations that have displayed the logo on a website on their domain for at least 12 months, as archived by a public web archive (such as the Internet Archive’s Wayback Machine).',
      'Organizations whose logo is a modified version of a registered trademark (different colours, layout or added elements) choose the modified registered mark option below.',
    ],
    markValidation:
      'For a prior use mark, DigiCert finds the logo in a public web archive on your domain at least 12 months ago. For a modified registered mark, it checks the registered trademark your logo is based on.',
    mailboxes: ['Gmail (web and app)'],
    checkmark: false,
  },
  'modified-registered-mark': {
    markType: 'Modified registered mark',
    whatItIs:
      'A Common Mark Certificate for a modified registered mark covers a logo derived from your registered trademark, such as a new colour scheme, a simplified shape or the mark combined with other elements. Gmail displays the logo, without the verified checkmark.',
    whoMayBuy: [
      'Organizations that own (or are licensed to use) a registered trademark and display a modified version of it.',
      `The mark it derives from must be registered with an accepted trademark office. ${PENDING_TRADEMARK_START}`,
    ],
    markValidation: 'DigiCert checks the registered trademark your logo is based on and that the differences keep it recognisably the same mark.',
    mailboxes: ['Gmail (web and app)'],
    checkmark: false,
  },
  'government-mark-certificate': {
    markType: 'Government mark',
    whatItIs:
      'A Government Mark Certificate is a Verified Mark Certificate for a seal, emblem or logo that a government body is granted by law, regulation or an official government document rather than by trademark registration. Citizens see the agency’s official mark beside its email, with Gmail’s blue verified checkmark.',
    whoMayBuy: [
      'Federal, state and local government agencies, departments and other public bodies.',
      'The mark must be established by a statute, regulation, executive order or similar official document that names the agency.',
    ],
    markValidation: 'DigiCert checks the statute, regulation or official document that grants the mark to your agency, and that the agency is a government entity at the level you chose.',
    mailboxes: LOGO_MAILBOXES,
    checkmark: true,
  },
};

/** The validation every mark certificate goes through, around the mark check of each certificate. */
export function validationSteps(certificate: CertificateId): { title: string; detail: string }[] {
  return [
    {
      title: 'Put DMARC at enforcement',
      detail: 'Every domain on the certificate needs a DMARC policy of p=quarantine or p=reject (at pct=100) before logos are shown.',
    },
    { title: 'Prepare the logo', detail: 'The logo is supplied as an SVG Tiny Portable/Secure (SVG Tiny PS) file, square, on a solid background.' },
    { title: 'Organization and domains', detail: 'DigiCert validates your organization’s legal existence, address and phone number, and your control of each domain.' },
    { title: 'Verify the mark', detail: CERTIFICATE_COPY[certificate].markValidation },
    {
      title: 'Verify a representative',
      detail: 'A person at your organization confirms their identity and authority on a short video call with a DigiCert-approved verifier.',
    },
    { title: 'Publish BIMI', detail: 'Once issued, publish the certificate and logo in your default._bimi TXT record; supporting mailboxes pick it up.' },
  ];
}
