import { links, list, p, steps, type LongDocument } from '../../lib/document';

export interface EntrustGuide extends LongDocument {
  path: string;
  /** One line for the list of guides. */
  summary: string;
}

/** The guides under /landing/entrust-to-digicert/; their titles and descriptions are in routes.json too. */
export const ENTRUST_GUIDES: readonly EntrustGuide[] = [
  {
    path: '/landing/entrust-to-digicert/checklist',
    title: 'Entrust to DigiCert migration checklist',
    summary: 'Every step from reading your current certificate to swapping the PEM file, with timings.',
    lead: 'Follow these steps, in order, to replace an Entrust Verified Mark Certificate with a DigiCert one without a day in which mailboxes stop showing your logo.',
    sections: [
      {
        heading: 'Six weeks before expiry: take stock',
        blocks: [
          list(
            'Run the VMC validator on your domain to read the current certificate: its expiry date, the domains it covers and the trademark it names.',
            'Confirm the trademark registration is still live and owned by the same legal entity; renewals and company mergers are the usual surprises.',
            'Check that every domain is still at DMARC enforcement (p=quarantine or p=reject).',
          ),
          links({ label: 'VMC validator', to: '/vmc-validator' }, { label: 'DMARC inspector', to: '/dmarc-inspector' }),
        ],
      },
      {
        heading: 'Four to five weeks before: order and validate',
        blocks: [
          steps(
            'Order a DigiCert VMC for the same domains. Add any new domains now; adding them later means a re-issue.',
            'Send us your company registration details, trademark registration and the SVG logo you used with Entrust.',
            'Book the identity verification of your representative with a notary or by video call, and name an officer for the verification call.',
          ),
          p('DigiCert validates from scratch: a previous Entrust validation is not transferred, but the same documents normally pass again.'),
        ],
      },
      {
        heading: 'On issuance: swap the certificate',
        blocks: [
          steps(
            'Download the PEM file of the DigiCert certificate from your account.',
            'Upload it to the address in the a= tag of your BIMI record, replacing the Entrust file (or publish it at a new address and update the tag).',
            'Run the BIMI checker: it should show the DigiCert chain and your domains.',
          ),
          p('Mailboxes cache certificates for up to a few days; because both certificates are valid during the overlap, your logo keeps showing throughout.'),
          links({ label: 'BIMI checker', to: '/bimi-checker' }),
        ],
      },
    ],
  },
  {
    path: '/landing/entrust-to-digicert/faq',
    title: 'Entrust to DigiCert: questions and answers',
    summary: 'What changes, what stays the same, and what happens if your Entrust certificate expires first.',
    lead: 'Answers to the questions Entrust mark certificate customers ask us most often about moving to DigiCert.',
    sections: [
      {
        heading: 'Will my Entrust VMC stop working before it expires?',
        blocks: [
          p(
            'An issued certificate stays valid until its expiry date unless it is revoked. What ends is renewal: Entrust no longer issues new mark certificates, so you need a new certificate from another authority before the expiry date.',
          ),
        ],
      },
      {
        heading: 'Do I need to change my BIMI record?',
        blocks: [p('Only if you publish the new certificate at a different address. If you replace the PEM file at the same URL, the record stays exactly as it is.')],
      },
      {
        heading: 'Does my logo need to change?',
        blocks: [p('No. The SVG Tiny PS logo that passed Entrust’s review is normally accepted by DigiCert as it is, provided it still matches your registered trademark.')],
      },
      {
        heading: 'What if my Entrust certificate expires before the DigiCert one is issued?',
        blocks: [
          p('Mailboxes stop showing your logo until the new certificate is published; mail is still delivered normally. Order at least three to four weeks before expiry to avoid the gap.'),
        ],
      },
      {
        heading: 'Is there a price difference for migrating customers?',
        blocks: [
          p('Migrating customers pay the standard DigiCert VMC price, with the usual savings on two- and three-year plans, which lock in the price of every yearly re-issue.'),
          links({ label: 'Verified Mark Certificate plans', to: '/products/digicert-verified-mark-certificate' }),
        ],
      },
    ],
  },
];
