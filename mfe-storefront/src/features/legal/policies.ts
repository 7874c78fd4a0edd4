import { list, p, type LongDocument } from '../../lib/document';

export interface Policy extends LongDocument {
  path: '/privacy-policy' | '/terms' | '/refund-policy';
  updated: string;
}

export const POLICIES: readonly Policy[] = [
  {
    path: '/privacy-policy',
    title: 'Privacy policy',
    updated: '26 November 2026',
    lead: 'How BIMI Store collects, uses, shares and protects personal data when you visit this site, use our tools, or buy certificates and plans from us.',
    sections: [
      {
        heading: '1. Who we are',
        blocks: [
          p(
            `BIMI Store ("we", "us") operates this website and sells mark certificates and DMARC enforcement plans. We are the controller of the personal data described in this policy. You can reach us about privacy through the contact page, choosing "Something else" as the topic.`,
          ),
        ],
      },
      {
        heading: '2. Data we collect',
        blocks: [
          list(
            'Account data: your name, email address, password (stored only as a salted hash), profile picture if you add one, and the organizations and contacts you manage.',
            'Order data: the products you buy, the domains, logos and trademark or agency details in your order, billing address, and the last four digits and expiry of your card. Full card numbers are handled by our payment provider and never reach our servers.',
            'Validation data: documents you give us for certificate validation, such as business registration details, trademark records and the identity details of your verified representative, which we pass to the certificate authority.',
            'Tool and monitor data: domain names you check or monitor and the public DNS records and certificates we fetch for them.',
            'Messages: what you send through the contact form or support tickets, with your name, email, company and topic.',
            'Newsletter: your email address, if you subscribe.',
            'Usage data: pages viewed, referring page, browser type and IP address, in server logs and a first-party page-view record. Analytics tags from third parties load only if you accept cookies.',
          ),
        ],
      },
      {
        heading: '3. Why we use it, and our legal bases',
        blocks: [
          list(
            'To provide your account, process orders, obtain certificates and deliver plans (performance of a contract).',
            'To validate your organization and mark with the certificate authority, as the Mark Certificate Requirements oblige it to (contract and legal obligation).',
            'To answer your messages and support requests (legitimate interest, or steps before a contract).',
            'To keep the site secure, prevent fraud and abuse, and rate-limit automated requests (legitimate interest).',
            'To send the newsletter and measure site use with analytics cookies (consent, which you can withdraw at any time).',
            'To keep accounting and tax records (legal obligation).',
          ),
        ],
      },
      {
        heading: '4. Who we share it with',
        blocks: [
          p('We do not sell personal data. We share it only with:'),
          list(
            'DigiCert, the certificate authority, for validation and issuance of your certificate; certificates are public and are logged in public certificate transparency logs where required.',
            'EasyDMARC, for the DMARC plans you buy.',
            'Our card payment provider, to take payments and manage subscriptions.',
            'Hosting, email delivery and analytics providers that process data on our instructions under data processing agreements.',
            'Authorities, when the law requires it.',
          ),
        ],
      },
      {
        heading: '5. International transfers',
        blocks: [
          p(
            'Some of our providers are located outside your country, including in the United States. Where data leaves the European Economic Area or the United Kingdom, we rely on adequacy decisions or the European Commission’s standard contractual clauses.',
          ),
        ],
      },
      {
        heading: '6. How long we keep it',
        blocks: [
          list(
            'Account data: while your account is open, and deleted within 90 days after you close it.',
            'Orders, invoices and validation records: seven years, to meet accounting rules and the certificate authority’s audit obligations.',
            'Contact messages and support tickets: two years after the last reply.',
            'Server logs and page-view records: 13 months.',
          ),
        ],
      },
      {
        heading: '7. Cookies',
        blocks: [
          p(
            'We use strictly necessary cookies for sign-in, security and your cart, and a cookie that remembers your cookie choice for 365 days. In your account, two cookies remember its layout for 365 days: whether you collapsed the sidebar, and whether your screen is phone-sized. Analytics and tag manager cookies are set only after you accept them in the cookie banner; if you decline, none are set. You can change your choice by clearing the cookie in your browser.',
          ),
        ],
      },
      {
        heading: '8. Your rights',
        blocks: [
          p(
            `You can ask for a copy of your personal data, its correction or deletion, a restriction of its use, its transfer to another provider, or object to our use based on legitimate interest. Write to us through the contact page; we answer within 30 days and may ask you to confirm your identity first. You may also complain to your data protection authority. California residents have the rights given by the CCPA/CPRA, and we do not sell or share personal information for cross-context behavioural advertising.`,
          ),
        ],
      },
      {
        heading: '9. Security',
        blocks: [
          p(
            'We encrypt connections with TLS, store passwords as salted hashes, limit staff access to what each role needs, and review our providers’ security. No system is perfectly secure; if a breach affects your data we will tell you and the authorities as the law requires.',
          ),
        ],
      },
      {
        heading: '10. Changes',
        blocks: [p('We will post any change to this policy on this page with a new date, and tell account holders by email about significant changes before they take effect.')],
      },
    ],
  },
  {
    path: '/terms',
    title: 'Terms of service',
    updated: '1 November 2026',
    lead: 'These terms govern your use of the BIMI Store website, tools and account area, and every purchase of mark certificates and DMARC plans from BIMI Store.',
    sections: [
      {
        heading: '1. Agreement',
        blocks: [
          p(
            'By creating an account, using our tools or placing an order you accept these terms on behalf of yourself and of the organization you represent, and you confirm you are authorized to bind it. If you do not accept them, do not use the site.',
          ),
        ],
      },
      {
        heading: '2. Accounts',
        blocks: [
          p(
            'Keep your sign-in details confidential and tell us at once about any unauthorized use. You are responsible for activity in your account. Sessions end after two hours without activity for your protection.',
          ),
        ],
      },
      {
        heading: '3. Mark certificates',
        blocks: [
          list(
            'Certificates are issued by DigiCert, Inc. under its Certificate Practice Statement and subscriber agreement, which you accept during enrollment. We act as an authorized reseller.',
            'Issuance depends on successful validation of your organization, domains, mark and representative. We cannot guarantee issuance or a date of issuance.',
            'You must give accurate information, hold the rights to the mark you submit, and tell us promptly if those rights end. The certificate authority may revoke a certificate issued on inaccurate information or for a mark you no longer own.',
            'Display of your logo is decided by each mailbox provider under its own rules; a certificate makes display possible but does not guarantee it.',
          ),
        ],
      },
      {
        heading: '4. DMARC plans',
        blocks: [
          p(
            'DMARC plans are provided with EasyDMARC and include the domains, report history and users stated on the product page. Changes you make to DNS records are your responsibility; we advise, but you decide when to change your policy.',
          ),
        ],
      },
      {
        heading: '5. Prices, payment and renewal',
        blocks: [
          list(
            'Prices are shown in US dollars, exclusive of any sales tax or VAT, which is added at checkout where it applies.',
            'Payment is by card through our payment provider. Multi-year certificate plans are billed as shown at checkout.',
            'Plans are subscriptions and renew automatically at the end of each term unless you cancel before the renewal date in your account’s billing section. We remind you by email before an annual renewal.',
          ),
        ],
      },
      {
        heading: '6. Refunds',
        blocks: [p('Refunds are governed by our refund policy, which forms part of these terms.')],
      },
      {
        heading: '7. Free tools',
        blocks: [
          p(
            'The BIMI checker, VMC validator, DMARC inspector and account tools are provided as they are, for checking domains you own or are authorized to test. Do not use them to overload DNS servers or for automated scanning; we rate-limit requests.',
          ),
        ],
      },
      {
        heading: '8. Acceptable use',
        blocks: [
          p(
            'You may not use the site to break the law, infringe anyone’s rights, send unsolicited email, probe or disrupt our systems, or obtain a certificate for a mark you are not entitled to use.',
          ),
        ],
      },
      {
        heading: '9. Liability',
        blocks: [
          p(
            'To the extent the law allows, our total liability for any claim arising from an order is limited to the amount you paid for it in the twelve months before the claim, and we are not liable for indirect or consequential losses such as lost profits or lost email. Nothing in these terms limits liability for death, personal injury, fraud or anything else the law does not allow to be limited.',
          ),
        ],
      },
      {
        heading: '10. Termination',
        blocks: [
          p(
            'You may close your account at any time. We may suspend or close accounts that break these terms. Certificates already issued remain subject to the certificate authority’s terms.',
          ),
        ],
      },
      {
        heading: '11. Changes and governing law',
        blocks: [
          p(
            'We may update these terms and will give 30 days’ notice of material changes by email. These terms are governed by the laws of the State of Delaware, USA, except where the consumer law of your country gives you rights that cannot be waived.',
          ),
        ],
      },
    ],
  },
  {
    path: '/refund-policy',
    title: 'Refund policy',
    updated: '1 November 2026',
    lead: 'When you can get your money back for a mark certificate or a DMARC plan, and how to ask for it.',
    sections: [
      {
        heading: '1. Mark certificates before issuance',
        blocks: [
          list(
            'Within 30 days of your order, if the certificate has not been issued: a full refund, for any reason.',
            'If validation cannot succeed for a reason you cannot fix (for example, the trademark office record cannot be verified): a full refund at any time before issuance.',
            'After 30 days, while validation is waiting on documents from you: we keep the order open for 12 months; you can cancel it for a refund less a USD 150 validation fee per certificate for the work done.',
          ),
        ],
      },
      {
        heading: '2. Mark certificates after issuance',
        blocks: [
          p(
            'Once a certificate is issued, the current year is not refundable, because the certificate authority has issued and logged it. On a two- or three-year plan you can cancel the years that have not started; we refund what you paid for them, less the difference between the multi-year price and the one-year prices for the years you used.',
          ),
          p('If a certificate has to be revoked because of an error by us or the certificate authority, we re-issue it free of charge or refund the current year in full.'),
        ],
      },
      {
        heading: '3. DMARC plans',
        blocks: [
          list(
            'Monthly plans: cancel at any time; the plan runs to the end of the paid month and is not refunded pro rata.',
            'Annual plans: a full refund within 14 days of purchase or renewal; after that, the plan runs to the end of the paid year.',
          ),
        ],
      },
      {
        heading: '4. Automatic renewals',
        blocks: [
          p(
            'We email you before each annual renewal. If you forgot to cancel, ask within 14 days of the renewal charge: we refund it in full as long as no new certificate has been issued for the renewed term.',
          ),
        ],
      },
      {
        heading: '5. How to ask',
        blocks: [
          p(
            'Open a support ticket from your account or write to us through the contact page, choosing "Billing, renewals and refunds", with your order number. We answer within two business days and refund to the original card within 10 business days of approval.',
          ),
          p('Your statutory rights as a consumer, where they apply, are not affected by this policy.'),
        ],
      },
    ],
  },
];
