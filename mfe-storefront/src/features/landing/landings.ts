import type { CertificateId } from '@bimi/catalog/products';

/** A campaign landing page: one certificate, who it is for, what it takes, and one action. */
export interface Landing {
  path: string;
  eyebrow: string;
  heading: string;
  lead: string;
  /** The certificate whose one-year price the page quotes. */
  productId: CertificateId;
  productPath: string;
  benefits: readonly { title: string; text: string }[];
  requirements: readonly string[];
  steps: readonly string[];
  faqIds: readonly string[];
}

const VMC_PATH = '/products/digicert-verified-mark-certificate';

export const LANDINGS: readonly Landing[] = [
  {
    path: '/landing/verified-mark-certificate',
    eyebrow: 'DigiCert Verified Mark Certificate',
    heading: 'Your trademark logo and a verified checkmark in Gmail',
    lead: 'A Verified Mark Certificate shows recipients that your messages really come from you: your registered logo in Gmail, Apple Mail, Yahoo and more, and the blue checkmark in Gmail.',
    productId: 'verified-mark-certificate',
    productPath: VMC_PATH,
    benefits: [
      { title: 'Recognized at a glance', text: 'Your logo replaces the grey initial beside every message, in the inbox list and in the opened email.' },
      { title: 'The verified checkmark', text: 'Gmail adds a blue checkmark and tells recipients your organization was verified. Only a VMC earns it.' },
      { title: 'Harder to impersonate', text: 'BIMI needs DMARC at enforcement, so forged mail in your name is quarantined or rejected.' },
    ],
    requirements: [
      'Your logo registered as a trademark with an accepted office (USPTO, EUIPO, UK IPO, CIPO, DPMA, JPO, IP Australia and others)',
      'DMARC at p=quarantine or p=reject on every domain in the certificate',
      'The logo as a square SVG Tiny PS file matching the registered mark',
      'A representative who can verify their identity before a notary or on a video call',
    ],
    steps: [
      'Order your VMC for one or more domains',
      'Send us your trademark and company details; we prepare the validation file',
      'Verify your representative and approve the logo',
      'Publish your BIMI record with the issued certificate',
    ],
    faqIds: ['which-mailboxes', 'pending-trademark', 'dmarc-requirement', 'multi-year'],
  },
  {
    path: '/landing/common-mark-certificate',
    eyebrow: 'DigiCert Common Mark Certificate',
    heading: 'Show your logo in Gmail without a registered trademark',
    lead: 'If you have displayed your logo on your website for at least a year, a Common Mark Certificate gets it into Gmail inboxes now, while a trademark registration can take many months.',
    productId: 'common-mark-certificate',
    productPath: '/products/digicert-common-mark-certificate',
    benefits: [
      { title: 'No trademark needed', text: 'Prior use is enough: archived captures of your website prove you have used the logo for twelve months.' },
      { title: 'Also for modified marks', text: 'Display your registered trademark in new colours or without its wording as a modified registered mark.' },
      { title: 'A lower price', text: 'A CMC costs less than a VMC and goes through the same trusted DigiCert validation.' },
    ],
    requirements: [
      'Your logo shown on your domain’s website for at least 12 months, visible in public web archives',
      'DMARC at p=quarantine or p=reject on every domain in the certificate',
      'The logo as a square SVG Tiny PS file matching the logo you have used',
      'A representative who can verify their identity before a notary or on a video call',
    ],
    steps: [
      'Order your CMC for one or more domains',
      'We find the archived captures that prove prior use',
      'Verify your representative and approve the logo',
      'Publish your BIMI record with the issued certificate',
    ],
    faqIds: ['vmc-or-cmc', 'modified-mark', 'svg-format', 'how-long-until-logo'],
  },
  {
    path: '/landing/government-mark-certificate',
    eyebrow: 'DigiCert Government Mark Certificate',
    heading: 'Official seals in the inbox for government agencies',
    lead: 'Phishing that imitates tax offices, courts and benefit agencies is common. A Government Mark Certificate lets citizens see your official seal on the messages that really come from you.',
    productId: 'government-mark-certificate',
    productPath: '/products/digicert-government-mark-certificate',
    benefits: [
      { title: 'For federal, state and local bodies', text: 'Agencies at every level qualify; your seal or logo is validated on the act that established it.' },
      { title: 'No trademark registration', text: 'Government marks are often not registered as trademarks. The statute or official publication is the proof.' },
      { title: 'Trust citizens can see', text: 'Your seal beside every message in Gmail and other supporting mailboxes, and forged mail rejected by DMARC.' },
    ],
    requirements: [
      'Proof that your organization is a government entity, and of the law, regulation or official act that established the mark',
      'DMARC at p=quarantine or p=reject on every domain in the certificate (.gov and others)',
      'The seal or logo as a square SVG Tiny PS file',
      'A representative and an officer who can confirm the representative’s authority',
    ],
    steps: [
      'Order your GMC and choose your agency level',
      'Send us the legal instrument that establishes your mark',
      'Verify your representative and approve the logo',
      'Publish your BIMI record with the issued certificate',
    ],
    faqIds: ['government-mark', 'dmarc-requirement', 'several-domains', 'what-is-checked'],
  },
  {
    path: '/landing/entrust-to-digicert-vmc',
    eyebrow: 'Entrust VMC customers',
    heading: 'Keep your logo in the inbox: move your Entrust VMC to DigiCert',
    lead: 'Entrust has wound down its public certificate business and no longer issues or renews Verified Mark Certificates. Replace your Entrust VMC with a DigiCert one before it expires, and your logo never disappears.',
    productId: 'verified-mark-certificate',
    productPath: VMC_PATH,
    benefits: [
      { title: 'No gap in logo display', text: 'We time the new certificate to be issued before your Entrust one expires, then you swap one file.' },
      { title: 'Your documents, reused', text: 'Your trademark registration and SVG logo already passed validation once; we prepare them for DigiCert.' },
      { title: 'The largest mark certificate authority', text: 'DigiCert issued the first VMCs and is trusted by every mailbox that supports BIMI.' },
    ],
    requirements: [
      'The domains and expiry date of your Entrust VMC (the VMC validator reads them from your BIMI record)',
      'Your trademark registration number and the SVG logo you used with Entrust',
      'A representative available for identity verification: validation is done again by DigiCert',
    ],
    steps: [
      'Check your current certificate with the VMC validator',
      'Order a DigiCert VMC at least three weeks before the Entrust expiry',
      'Complete DigiCert’s validation with our help',
      'Replace the PEM file your BIMI record points to',
    ],
    faqIds: ['how-long-until-logo', 'multi-year', 'refunds'],
  },
];
