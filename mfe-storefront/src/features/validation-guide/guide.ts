import { PENDING_TRADEMARK_RULE, VALIDATION_TIME } from '@bimi/catalog/facts';
import { code, list, p, steps, type LongDocument } from '../../lib/document';

/** Where the built guide is published (and linked from the account sidebar and the help pages). */
export const VALIDATION_GUIDE_PATH = '/docs/Mark-Certificate-Validation-Guide.pdf';

/** The date printed in the file; bump it with the text. */
export const VALIDATION_GUIDE_REVISED = '2026-11-01';

/**
 * The Mark Certificate Validation Guide. The build prints it to VALIDATION_GUIDE_PATH
 * (render-guide-pdf.ts); edit the text here and the next build publishes it.
 */
export const VALIDATION_GUIDE: LongDocument = {
  title: 'Mark Certificate Validation Guide',
  lead: 'What the certificate authority checks before it issues a Verified, Common or Government Mark Certificate, which documents to prepare, and how to publish your logo with BIMI once the certificate is issued.',
  sections: [
    {
      heading: '1. Before you order',
      blocks: [
        p(
          `A mark certificate proves to mailbox providers that your organization has the right to show a particular logo. Validation is done by hand by the issuing certificate authority (DigiCert). ${VALIDATION_TIME} Nearly all delays come from missing documents or a domain that is not yet at DMARC enforcement. Check these points before you place an order:`,
        ),
        list(
          'Every sending domain in the certificate has a DMARC record at enforcement: p=quarantine or p=reject, with pct=100 (or no pct tag), and no sp=none for subdomains that send mail.',
          'SPF and DKIM pass and align with the From: domain for all the services that send on your behalf (marketing platform, CRM, help desk, invoicing).',
          'Your logo exists as a square SVG Tiny Portable/Secure (SVG Tiny PS) file that matches the mark you will validate.',
          'You know which certificate fits your mark: a registered trademark (VMC), a logo used for at least a year (CMC), a registered mark you have modified (CMC, modified registered mark), or an official government mark (GMC).',
          'A person in your organization can act as the verified representative and an officer can confirm that person is authorized.',
        ),
      ],
    },
    {
      heading: '2. Choosing the right certificate',
      blocks: [],
      subsections: [
        {
          heading: 'Verified Mark Certificate (VMC)',
          blocks: [
            p(
              'For a logo registered as a trademark with an accepted intellectual property office, such as the USPTO, EUIPO, UK IPO, CIPO (Canada), DPMA (Germany), JPO (Japan), IP Australia, INPI (France), KIPO (Korea) or WIPO international registrations designating one of these offices. The registration must be live (not expired or cancelled) and owned by the organization named in the certificate, or by a parent or subsidiary with documented authorization.',
            ),
            p(PENDING_TRADEMARK_RULE),
            p('A VMC is the only certificate that earns the blue verified checkmark in Gmail, and the one Apple Mail requires.'),
          ],
        },
        {
          heading: 'Common Mark Certificate (CMC)',
          blocks: [
            p(
              'For a logo you have used publicly for at least twelve months but have not registered. Prior use is proven with archived captures of your website, normally from the Internet Archive, showing the same logo on the domain at least one year before the application. Gmail shows CMC logos without the checkmark.',
            ),
            p(
              'A modified registered mark is also issued as a CMC: a registered trademark that you display with small changes, such as a different colour, an added or removed word, or a simplified shape. The registration is checked and the difference must be minor and recognizable.',
            ),
          ],
        },
        {
          heading: 'Government Mark Certificate (GMC)',
          blocks: [
            p(
              'For federal, state and local government bodies whose seal or logo is granted by statute, regulation or official act rather than registered as a trademark. The agency provides the legal instrument that establishes the mark, or an official publication of it, and proves it is the government entity entitled to use it.',
            ),
          ],
        },
      ],
    },
    {
      heading: '3. The validation steps',
      blocks: [p('DigiCert follows the Mark Certificate Requirements published by the AuthIndicators Working Group. Each order goes through these checks, in roughly this order:')],
      subsections: [
        {
          heading: 'Step 1: Organization validation',
          blocks: [
            p(
              'The certificate authority confirms that your organization legally exists, is active, and is at the address and phone number given in the order. It uses a government business registry (for example a Secretary of State record or Companies House) and an independent directory for the telephone number. The legal name in the order must match the registry exactly, including suffixes such as Inc., GmbH or Ltd.',
            ),
            list(
              'Legal name, registration number and jurisdiction of incorporation',
              'Registered address and a telephone number listed in a public directory',
              'Any assumed or trading name you want shown, with proof of its registration',
            ),
          ],
        },
        {
          heading: 'Step 2: Domain control',
          blocks: [
            p(
              'Each domain in the certificate is checked for control by your organization, usually by an email to a constructed address (admin@, hostmaster@) or a DNS TXT record with a random value. Adding more domains later requires a re-issue.',
            ),
          ],
        },
        {
          heading: 'Step 3: Mark verification',
          blocks: [
            list(
              'VMC: the registration is looked up in the trademark office database; owner, status and the registered image are compared with the order and the logo file.',
              'CMC (prior use): the validator finds archived captures of your domain showing the logo at least twelve months before the application date.',
              'CMC (modified registered mark): the registration is verified and the displayed logo is compared with it to confirm the change is minor.',
              'GMC: the statute, regulation or official publication that grants the mark is reviewed, together with proof that the applicant is the entity it names.',
            ),
          ],
        },
        {
          heading: 'Step 4: Verified representative and notarization',
          blocks: [
            p(
              'Mark certificates need a named person who applies on behalf of the organization. That person proves their identity in front of a notary public (in person or through an approved remote online notary) or on a recorded video call with the certificate authority, showing a government photo ID. A company officer then confirms, in writing or by a verification call to the published company number, that the representative is employed and authorized to request the certificate.',
            ),
            list(
              'Government-issued photo ID of the representative',
              'Signed and notarized identity and authorization form (provided by DigiCert with the order)',
              'Name and title of an officer who can take the verification call',
            ),
          ],
        },
        {
          heading: 'Step 5: Logo review',
          blocks: [
            p(
              'The SVG you submit is embedded in the certificate, so it must be the file mailboxes will display. It is checked against the SVG Tiny PS profile and compared with the validated mark. Rejected files are the most common reason for a re-submission.',
            ),
            list(
              'Root element with version="1.2" and baseProfile="tiny-ps", and a <title> element with your organization name',
              'Square viewBox; the logo centred with a solid background, since mailboxes crop it to a circle or rounded square',
              'No scripts, animation, external references, embedded raster images, x or y attributes on the root element',
              'A small file: keep it under 32 KB',
            ),
          ],
        },
        {
          heading: 'Step 6: Issuance',
          blocks: [
            p(
              'Once every check passes, DigiCert issues a certificate chain in PEM format. The logo is carried inside the certificate in the logotype extension (RFC 3709), so a mailbox can verify that the image it shows is exactly the validated one. You download the PEM file from your account.',
            ),
          ],
        },
      ],
    },
    {
      heading: '4. Publishing your BIMI record',
      blocks: [
        steps(
          'Host the SVG logo and the PEM certificate file on HTTPS URLs you control, for example https://example.com/bimi/logo.svg and https://example.com/bimi/vmc.pem.',
          'Publish a TXT record at default._bimi.<your domain> that points to both files.',
          'Send a test message to a Gmail or Yahoo mailbox. Logos can take a few days to appear while providers refresh their caches and build reputation for your domain.',
        ),
        code('default._bimi.example.com. 3600 IN TXT "v=BIMI1; l=https://example.com/bimi/logo.svg; a=https://example.com/bimi/vmc.pem"'),
        p('Use the free BIMI checker at /bimi-checker to confirm the record, the SVG profile and the certificate chain before you announce the change.'),
      ],
    },
    {
      heading: '5. Where your logo appears',
      blocks: [
        list(
          'Gmail (web, Android and iOS): logos with a VMC or a CMC; the blue verified checkmark with a VMC.',
          'Apple Mail on iOS 16, iPadOS 16, macOS Ventura and later: logos backed by a VMC.',
          'Yahoo Mail and AOL: BIMI logos for senders at DMARC enforcement with good reputation, including certificate-backed logos.',
          'Fastmail, La Poste, Onet and other providers that have adopted BIMI.',
        ),
      ],
    },
    {
      heading: '6. Keeping the certificate valid',
      blocks: [
        p(
          'A mark certificate is valid for up to 398 days. A two- or three-year plan includes the yearly re-issue and revalidation at the price you locked in. Keep DMARC at enforcement, keep the trademark registration live, and replace the PEM file at the same URL when the new certificate is issued; the BIMI record does not need to change.',
        ),
        p('Questions about your order: write to us through the contact page of the BIMI Store, or open a ticket from Support in your account.'),
      ],
    },
  ],
};
