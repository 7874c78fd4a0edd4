import { PENDING_TRADEMARK_RULE, VALIDATION_TIME } from '@bimi/catalog/facts';
import { MAX_DOMAINS } from '@bimi/catalog/prices';

/** The FAQ, by topic: the /faq page shows it all; the home and landing pages quote single entries by id. */
export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
}

export interface FaqTopic {
  topic: string;
  entries: readonly FaqEntry[];
}

export const FAQ: readonly FaqTopic[] = [
  {
    topic: 'BIMI basics',
    entries: [
      {
        id: 'what-is-bimi',
        question: 'What is BIMI?',
        answer:
          'Brand Indicators for Message Identification (BIMI) is an email standard that lets a mailbox show your logo next to messages that pass DMARC authentication. You publish a DNS TXT record at default._bimi.<your domain> that points to your logo in SVG Tiny PS format and, for most mailboxes, to a mark certificate proving you own the logo.',
      },
      {
        id: 'which-mailboxes',
        question: 'Which mailboxes show BIMI logos?',
        answer:
          'Gmail shows logos backed by a Verified Mark Certificate (with a blue verified checkmark) or a Common Mark Certificate. Apple Mail on iOS 16, macOS Ventura and later shows logos backed by a VMC. Yahoo Mail and AOL show BIMI logos for senders with good reputation. Fastmail, La Poste, Onet and a growing list of other providers support BIMI too.',
      },
      {
        id: 'do-i-need-a-certificate',
        question: 'Do I need a mark certificate to use BIMI?',
        answer:
          'For Gmail and Apple Mail, yes: they only show logos that a mark certificate vouches for. Yahoo can show a self-asserted logo without one, but a certificate gives you the widest coverage and, with a VMC, the verified checkmark in Gmail.',
      },
      {
        id: 'how-long-until-logo',
        question: 'How long until my logo appears?',
        answer: `${VALIDATION_TIME} After you publish your BIMI record, mailboxes typically start showing the logo within a few days; Gmail also needs a steady volume of authenticated mail from your domain.`,
      },
    ],
  },
  {
    topic: 'Choosing a certificate',
    entries: [
      {
        id: 'vmc-or-cmc',
        question: 'Should I buy a VMC or a CMC?',
        answer:
          'Buy a Verified Mark Certificate if your logo is a registered trademark: it is the only certificate that shows the verified checkmark in Gmail and the only one Apple Mail accepts. Buy a Common Mark Certificate if your logo is not registered but you have displayed it on your website for at least twelve months.',
      },
      {
        id: 'pending-trademark',
        question: 'My trademark application is still pending. Can I get a VMC?',
        answer: `Not yet. ${PENDING_TRADEMARK_RULE}`,
      },
      {
        id: 'modified-mark',
        question: 'What is a modified registered mark?',
        answer:
          'A registered trademark that you display with small changes, for example in different colours or without the wording registered with it. It is issued as a Common Mark Certificate at the CMC price.',
      },
      {
        id: 'government-mark',
        question: 'Who can buy a Government Mark Certificate?',
        answer:
          'Federal, state and local government bodies whose seal or logo is established by statute, regulation or official act. The agency proves it is the government entity entitled to the mark; no trademark registration is needed.',
      },
      {
        id: 'several-domains',
        question: 'Can one certificate cover several domains?',
        answer: `Yes. A certificate can cover up to ${MAX_DOMAINS} domains that send mail under the same logo; each additional domain is priced like the first, with the same 10% discount. Different logos need separate certificates.`,
      },
    ],
  },
  {
    topic: 'Validation and setup',
    entries: [
      {
        id: 'dmarc-requirement',
        question: 'What DMARC policy do I need?',
        answer:
          'Every domain in the certificate must publish a DMARC policy at enforcement: p=quarantine or p=reject, applied to all mail (pct=100 or no pct tag), and subdomain policy not set to none. If you are still at p=none, our DMARC enforcement plans help you get there without blocking legitimate mail.',
      },
      {
        id: 'what-is-checked',
        question: 'What does validation involve?',
        answer:
          'The certificate authority verifies your organization in a government business registry, checks your control of the domains, verifies the mark (trademark registration, prior use or government authority), verifies the identity of your representative through a notary or video call, and reviews the SVG logo.',
      },
      {
        id: 'svg-format',
        question: 'What format must my logo be in?',
        answer:
          'SVG Tiny Portable/Secure (SVG Tiny PS): a square SVG with version="1.2", baseProfile="tiny-ps" and a <title>, with no scripts, animation, external links or embedded bitmaps, ideally under 32 KB. Our BIMI checker tells you whether your file conforms.',
      },
    ],
  },
  {
    topic: 'Orders, renewals and refunds',
    entries: [
      {
        id: 'multi-year',
        question: 'Why buy a two- or three-year plan?',
        answer:
          'A mark certificate is valid for up to 398 days, so it is re-issued every year. Two- and three-year plans lock in your price for every re-issue and cost less per year: the two-year plan is priced at 1.9 years and the three-year plan at 2.75 years.',
      },
      {
        id: 'refunds',
        question: 'Can I get a refund?',
        answer:
          'Yes, in full within 30 days of your order if the certificate has not been issued, and in full if validation fails for a reason you cannot fix. Once a certificate is issued, the current year is not refundable. See our refund policy for the details.',
      },
      {
        id: 'payment',
        question: 'How do I pay?',
        answer: 'By card at checkout. Plans renew automatically each year (or each month for monthly DMARC plans) until you cancel them from the billing section of your account.',
      },
    ],
  },
];

export function faqEntry(id: string): FaqEntry {
  const found = FAQ.flatMap((topic) => topic.entries).find((entry) => entry.id === id);
  if (!found) throw new Error(`No FAQ entry ${id}`);
  return found;
}
