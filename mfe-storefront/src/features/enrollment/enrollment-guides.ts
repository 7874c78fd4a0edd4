import { PENDING_TRADEMARK_RULE, VALIDATION_TIME } from '@bimi/catalog/facts';
import { links, list, p, steps, type LongDocument } from '../../lib/document';

export interface EnrollmentGuide extends LongDocument {
  path: string;
  /** Which certificate the checklist is for, as on the enrollment start page. */
  certificate: string;
  summary: string;
}

const REPRESENTATIVE = {
  heading: 'Your verified representative',
  blocks: [
    list(
      'Full name, job title, work email and direct phone number of the person applying',
      'A valid government-issued photo ID (passport, driving licence or national ID card)',
      'Availability for identity verification before a notary public, a remote online notary, or on a video call with DigiCert',
      'The name and title of an officer of the organization who can confirm the representative’s authority on a call to the organization’s published phone number',
    ),
  ],
} as const;

const ORGANIZATION = {
  heading: 'Your organization',
  blocks: [
    list(
      'Exact legal name as registered, including its suffix (Inc., LLC, GmbH, Ltd)',
      'Registration or incorporation number and jurisdiction',
      'Registered address and a telephone number listed in a public directory',
    ),
  ],
} as const;

const LOGO_AND_DMARC = {
  heading: 'Your logo and domains',
  blocks: [
    list(
      'The logo as a square SVG Tiny PS file (version="1.2", baseProfile="tiny-ps", with a <title>), under 32 KB',
      'Every domain to include in the certificate (up to 250), each at DMARC p=quarantine or p=reject',
      'Access to DNS or to the admin@ / hostmaster@ mailbox of each domain, for domain control validation',
    ),
    links({ label: 'Check a domain with the BIMI checker', to: '/bimi-checker' }, { label: 'Preparing your logo in SVG Tiny PS', to: '/articles/svg-tiny-ps-logo' }),
  ],
} as const;

export const ENROLLMENT_GUIDES: readonly EnrollmentGuide[] = [
  {
    path: '/digicert-enrollment/verified-mark-certificate',
    certificate: 'Verified Mark Certificate',
    title: 'Enrollment checklist: Verified Mark Certificate',
    summary: 'For a registered trademark. Trademark registration details plus the common documents.',
    lead: `Gather these details before you start a VMC enrollment. ${VALIDATION_TIME}`,
    sections: [
      ORGANIZATION,
      {
        heading: 'Your trademark',
        blocks: [
          list(
            'The registration number and the trademark office (for example USPTO, EUIPO, UK IPO, CIPO)',
            'The registered owner, which must be your organization or a parent or subsidiary that authorizes you in writing',
            'The registered image: your SVG logo must match it; colours may differ only if the registration claims no colour',
          ),
          p(PENDING_TRADEMARK_RULE),
        ],
      },
      LOGO_AND_DMARC,
      REPRESENTATIVE,
    ],
  },
  {
    path: '/digicert-enrollment/common-mark-certificate',
    certificate: 'Common Mark Certificate',
    title: 'Enrollment checklist: Common Mark Certificate',
    summary: 'For a logo used for at least a year, or a modified registered mark.',
    lead: 'Gather these details before you start a CMC enrollment, whether you certify prior use or a modified registered mark.',
    sections: [
      ORGANIZATION,
      {
        heading: 'Proof of your mark',
        blocks: [
          list(
            'Prior use: the web address where the logo has appeared for at least 12 months; DigiCert looks for archived captures (for example in the Internet Archive) dated at least a year before your application',
            'Modified registered mark: the registration number and office of the original trademark, and a short description of what you changed (colour, wording, layout)',
          ),
        ],
      },
      LOGO_AND_DMARC,
      REPRESENTATIVE,
    ],
  },
  {
    path: '/digicert-enrollment/government-mark-certificate',
    certificate: 'Government Mark Certificate',
    title: 'Enrollment checklist: Government Mark Certificate',
    summary: 'For federal, state and local government bodies with an official seal or logo.',
    lead: 'Gather these details before you start a GMC enrollment for your agency.',
    sections: [
      {
        heading: 'Your agency',
        blocks: [
          list(
            'The agency’s official name and level: federal, state or local',
            'The law, charter or official act that creates the agency, or its listing in an official government directory',
            'The agency’s main address and a published telephone number',
          ),
        ],
      },
      {
        heading: 'Proof of your mark',
        blocks: [
          list(
            'The statute, regulation, ordinance or official publication that establishes the seal or logo',
            'If the mark was adopted by resolution, a copy of the resolution and where it was published',
          ),
        ],
      },
      LOGO_AND_DMARC,
      REPRESENTATIVE,
    ],
  },
];

/** What every enrollment goes through, shown on /digicert-enrollment. */
export const ENROLLMENT_STEPS = steps(
  'Order your certificate and plan online; you receive an enrollment email from us the same business day.',
  'Complete the enrollment form with the details from your checklist and upload your SVG logo.',
  'DigiCert validates your organization and domains, and reviews your mark and logo.',
  'Your representative verifies their identity with a notary or on a video call; an officer confirms their authority.',
  'The certificate is issued; download the PEM file and publish your BIMI record.',
);
