import { code, links, list, p, steps, type LongDocument } from '../../lib/document';

export interface Article extends LongDocument {
  /** The page is /articles/<slug>; its title and description in routes.json match these. */
  slug: string;
  readingMinutes: number;
}

export const ARTICLES: readonly Article[] = [
  {
    slug: 'what-is-bimi',
    title: 'What is BIMI, and what does it take to show your logo?',
    lead: 'BIMI puts your logo next to your messages in Gmail, Apple Mail, Yahoo and other mailboxes. Here is how it works and what you need before it does.',
    readingMinutes: 6,
    sections: [
      {
        heading: 'A logo as a reward for authentication',
        blocks: [
          p(
            'Brand Indicators for Message Identification (BIMI) is a standard developed by the AuthIndicators Working Group, whose members include Google, Yahoo, Fastmail, Valimail and certificate authorities. It gives senders a visible reward for protecting their domain: when a message passes DMARC at enforcement, the mailbox can show the sender’s logo in the inbox list and in the opened message.',
          ),
          p(
            'For recipients, the logo is a signal that the message really comes from the brand it names. For senders, studies by mailbox providers and marketers report higher open rates and more trust in messages with a verified logo. And because BIMI requires DMARC enforcement, every domain that qualifies is also much harder to spoof in phishing attacks.',
          ),
        ],
      },
      {
        heading: 'The four things you need',
        blocks: [
          steps(
            'DMARC at enforcement: p=quarantine or p=reject for the domain, applied to all mail.',
            'Your logo in SVG Tiny PS format, hosted on an HTTPS URL.',
            'A mark certificate (VMC, CMC or GMC) that proves your right to the logo; Gmail and Apple Mail require one.',
            'A BIMI record: a DNS TXT record at default._bimi.<your domain> pointing to the logo and the certificate.',
          ),
          code('default._bimi.example.com. IN TXT "v=BIMI1; l=https://example.com/bimi/logo.svg; a=https://example.com/bimi/vmc.pem"'),
        ],
      },
      {
        heading: 'What a mailbox does when your message arrives',
        blocks: [
          p(
            'The receiving server checks SPF and DKIM, then DMARC. If the message passes DMARC and your domain’s policy is at enforcement, it looks up your BIMI record, downloads the certificate, verifies that it chains to a trusted mark certificate authority, is valid and covers your domain, and compares the logo embedded in the certificate with the one at the l= address. Only when all of this checks out, and the provider’s own reputation rules are met, is the logo shown.',
          ),
        ],
      },
      {
        heading: 'Where logos appear today',
        blocks: [
          list(
            'Gmail: logos with a VMC or CMC, and a blue verified checkmark with a VMC.',
            'Apple Mail (iOS 16, macOS Ventura and later): logos with a VMC.',
            'Yahoo Mail and AOL: BIMI logos for senders with good reputation.',
            'Fastmail, La Poste, Onet and other providers that have adopted BIMI.',
          ),
          links({ label: 'Check your domain with the BIMI checker', to: '/bimi-checker' }, { label: 'How to get there, step by step', to: '/how-it-works' }),
        ],
      },
    ],
  },
  {
    slug: 'vmc-vs-cmc',
    title: 'VMC or CMC: which mark certificate do you need?',
    lead: 'Verified and Common Mark Certificates both get your logo into Gmail. They differ in what they prove, where the logo appears and what you need to apply.',
    readingMinutes: 5,
    sections: [
      {
        heading: 'Verified Mark Certificate',
        blocks: [
          p(
            'A VMC certifies a logo that is registered as a trademark with an intellectual property office accepted under the Mark Certificate Requirements, such as the USPTO, EUIPO, UK IPO, CIPO, DPMA, JPO or IP Australia. The registration must be live and owned by your organization (or a parent or subsidiary that authorizes you).',
          ),
          list(
            'Gmail shows the logo with a blue verified checkmark and "verified sender" details.',
            'Apple Mail shows the logo; it does not accept CMCs.',
            'Yahoo, AOL, Fastmail and others show the logo.',
          ),
        ],
      },
      {
        heading: 'Common Mark Certificate',
        blocks: [
          p(
            'A CMC certifies a logo that has been in public use for at least twelve months, without a trademark registration. Prior use is proven with archived captures of your website, normally from the Internet Archive, showing the same logo on the domain a year or more before the application.',
          ),
          p(
            'Gmail shows CMC logos without the checkmark. A CMC is also how you certify a modified registered mark: your registered trademark displayed with minor changes in colour or wording.',
          ),
        ],
      },
      {
        heading: 'Side by side',
        blocks: [
          list(
            'What it proves: VMC, a registered trademark; CMC, a year of prior use (or a registered mark, modified).',
            'Checkmark in Gmail: VMC yes; CMC no.',
            'Apple Mail: VMC yes; CMC no.',
            'Validation: both need organization validation, domain control, a verified representative and an SVG Tiny PS logo review.',
            'Price: a CMC costs less; see the product pages for current plans.',
          ),
        ],
      },
      {
        heading: 'Which one to choose',
        blocks: [
          p(
            'If your logo is registered, choose the VMC: it reaches more mailboxes and earns the checkmark. If it is not registered yet, a CMC lets you start now and switch to a VMC when the registration is granted. Government bodies whose seal is established by law choose the Government Mark Certificate instead.',
          ),
          links(
            { label: 'Verified Mark Certificate', to: '/products/digicert-verified-mark-certificate' },
            { label: 'Common Mark Certificate', to: '/products/digicert-common-mark-certificate' },
            { label: 'Government Mark Certificate', to: '/products/digicert-government-mark-certificate' },
          ),
        ],
      },
    ],
  },
  {
    slug: 'dmarc-enforcement-for-bimi',
    title: 'Getting to DMARC enforcement without losing mail',
    lead: 'BIMI needs p=quarantine or p=reject. Moving there safely is mostly about finding every service that sends as your domain. Here is the process we follow with customers.',
    readingMinutes: 7,
    sections: [
      {
        heading: 'Why p=none is not enough',
        blocks: [
          p(
            'A DMARC policy of p=none asks receivers to report on your mail but to deliver it all, including messages forged by someone else. Mailboxes therefore do not trust a p=none domain enough to show its logo. BIMI requires p=quarantine or p=reject, applied to all messages: a pct tag below 100 or a subdomain policy of sp=none disqualifies the domain.',
          ),
        ],
      },
      {
        heading: 'Step 1: Turn on reporting',
        blocks: [
          p('Publish a monitoring policy with an address for aggregate reports, and give the reports a few weeks to arrive from the main providers.'),
          code('_dmarc.example.com. IN TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@example.com; fo=1"'),
        ],
      },
      {
        heading: 'Step 2: Find and fix every sender',
        blocks: [
          p('Group the sources in the reports by service. For each legitimate one, make its mail pass with alignment:'),
          list(
            'Prefer DKIM: publish the service’s DKIM key under your domain so it signs with d=yourdomain.',
            'Add SPF includes only for services that send with your domain in the envelope sender, and stay under SPF’s ten-lookup limit.',
            'Move services that cannot authenticate to a subdomain with its own policy.',
            'Forwarded mail and mailing lists may fail SPF; DKIM usually survives forwarding, another reason to rely on it.',
          ),
        ],
      },
      {
        heading: 'Step 3: Tighten the policy in stages',
        blocks: [
          steps(
            'p=quarantine; pct=25, watching reports for legitimate mail that fails.',
            'p=quarantine with pct=100 (or no pct tag) once failures are only forgeries. This already qualifies for BIMI.',
            'p=reject, the strongest protection, when you are confident every sender is covered.',
          ),
          p('Keep reading reports after enforcement: a marketing tool added next year will fail DMARC until it is set up, and you want to know before its campaign goes out.'),
        ],
      },
      {
        heading: 'Doing it with help',
        blocks: [
          p('Our DMARC Plus and Premium plans process the reports for you, identify each sending service by name, and tell you which DNS change to make next.'),
          links({ label: 'DMARC enforcement plans', to: '/products/easydmarc-enforcement' }, { label: 'Inspect your DMARC record now', to: '/dmarc-inspector' }),
        ],
      },
    ],
  },
  {
    slug: 'svg-tiny-ps-logo',
    title: 'Preparing your logo in SVG Tiny PS',
    lead: 'BIMI logos must be SVG Tiny Portable/Secure files. Most rejected logos fail on a handful of details; this checklist covers them.',
    readingMinutes: 5,
    sections: [
      {
        heading: 'Why a special SVG profile',
        blocks: [
          p(
            'Mailboxes render your logo inside their own interface, for millions of users, from a file you host. SVG Tiny PS removes everything that could run code, fetch other resources or behave differently between renderers, so the logo is safe and looks the same everywhere. The certificate embeds the same file, so it must be right before you order.',
          ),
        ],
      },
      {
        heading: 'The checklist',
        blocks: [
          list(
            'The root <svg> element has version="1.2" and baseProfile="tiny-ps".',
            'There is a <title> element, normally your organization or brand name.',
            'The viewBox is square (for example 0 0 512 512), and the root has no x or y attributes.',
            'No <script>, no animation elements, no event attributes such as onload.',
            'No external references: no links to other files, fonts or stylesheets, and no embedded raster images (PNG or JPEG in a data URI).',
            'A solid background fills the square: mailboxes crop the logo to a circle or rounded square and show it on light and dark themes.',
            'The file is small: keep it under 32 KB.',
          ),
        ],
      },
      {
        heading: 'A minimal conforming file',
        blocks: [
          code(
            '<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 512 512">\n  <title>Example Corp</title>\n  <rect width="512" height="512" fill="#0b1f44"/>\n  <circle cx="256" cy="256" r="150" fill="#ffffff"/>\n</svg>',
          ),
        ],
      },
      {
        heading: 'Converting an existing logo',
        blocks: [
          steps(
            'Export your logo from your design tool as plain SVG, with text converted to outlines.',
            'Place it centred on a square artboard with a background colour, leaving some margin for the circular crop.',
            'Edit the root element and add the title, then remove any metadata, editor namespaces and unsupported elements.',
            'Run the file through the BIMI checker and compare it with your registered or prior-use mark: the certificate authority rejects logos that differ from the validated mark.',
          ),
          links(
            { label: 'Check your logo with the BIMI checker', to: '/bimi-checker' },
            { label: 'Mark Certificate Validation Guide (PDF)', to: '/docs/Mark-Certificate-Validation-Guide.pdf' },
          ),
        ],
      },
    ],
  },
];
