/** Terms of email authentication and mark certificates, in alphabetical order. */
export interface GlossaryTerm {
  term: string;
  /** The expansion of an abbreviation, shown after the term. */
  expansion?: string;
  definition: string;
}

export const GLOSSARY: readonly GlossaryTerm[] = [
  {
    term: 'Aggregate report (RUA)',
    definition:
      'A daily XML summary that mailbox providers send to the address in your DMARC rua tag, listing the IP addresses that sent mail as your domain and whether it passed SPF, DKIM and DMARC. Reading these reports is how you find every legitimate sender before moving to enforcement.',
  },
  {
    term: 'Alignment',
    definition:
      'The DMARC rule that the domain authenticated by SPF (the envelope sender) or by DKIM (the d= tag of the signature) must match the domain in the visible From: header, exactly (strict) or at the organizational-domain level (relaxed).',
  },
  {
    term: 'BIMI',
    expansion: 'Brand Indicators for Message Identification',
    definition:
      'An email standard that lets mailbox providers display a sender’s logo next to messages that pass DMARC. The sender publishes a BIMI record in DNS pointing to the logo and, usually, to a mark certificate.',
  },
  {
    term: 'BIMI record',
    definition:
      'A DNS TXT record at <selector>._bimi.<domain>, normally default._bimi, of the form v=BIMI1; l=<logo URL>; a=<certificate URL>. The l= tag points to the SVG Tiny PS logo and the a= tag to the PEM file of the mark certificate.',
  },
  {
    term: 'CMC',
    expansion: 'Common Mark Certificate',
    definition:
      'A mark certificate for a logo that is not a registered trademark but has been displayed publicly on the applicant’s website for at least twelve months, proven with archived captures. Also issued for modified registered marks. Gmail shows CMC logos without the verified checkmark.',
  },
  {
    term: 'DKIM',
    expansion: 'DomainKeys Identified Mail',
    definition:
      'A cryptographic signature added to each message by the sending server. Receivers fetch the public key from DNS at <selector>._domainkey.<domain> and check that the signed headers and body were not changed in transit.',
  },
  {
    term: 'DMARC',
    expansion: 'Domain-based Message Authentication, Reporting and Conformance',
    definition:
      'A DNS policy at _dmarc.<domain> that tells receivers what to do with mail that fails aligned SPF and DKIM: nothing (p=none), send it to spam (p=quarantine) or refuse it (p=reject), and where to send reports.',
  },
  {
    term: 'DMARC enforcement',
    definition: 'A DMARC policy of p=quarantine or p=reject applied to all of a domain’s mail. BIMI logos are only shown for domains at enforcement.',
  },
  {
    term: 'GMC',
    expansion: 'Government Mark Certificate',
    definition:
      'A mark certificate for a government body’s seal or logo established by statute, regulation or official act instead of a trademark registration. Available to federal, state and local agencies.',
  },
  {
    term: 'Logotype extension',
    definition:
      'The X.509 certificate extension defined in RFC 3709 that carries an image inside a certificate. Mark certificates embed the validated SVG logo in it, so a mailbox can check that the logo in the BIMI record is exactly the one the certificate authority verified.',
  },
  {
    term: 'Mark Certificate Requirements',
    definition: 'The rules, published by the AuthIndicators Working Group, that certificate authorities follow when they validate and issue VMCs, CMCs and GMCs.',
  },
  {
    term: 'Mark verifying authority',
    definition:
      'The body whose records prove the right to a mark: a trademark office such as the USPTO or EUIPO for a VMC, or the government authority that established a government mark for a GMC. The certificate names it.',
  },
  {
    term: 'Modified registered mark',
    definition: 'A registered trademark that is displayed with minor changes, such as different colours or without registered wording. It is certified with a Common Mark Certificate.',
  },
  {
    term: 'Notarized verification',
    definition:
      'The step of mark certificate validation in which the applicant’s representative proves their identity before a notary public (in person or by remote online notarization) or on a video call with the certificate authority.',
  },
  {
    term: 'Organization validation',
    definition:
      'The check that the applicant organization legally exists and is active, at the address and telephone number given, using a government business registry and independent directories.',
  },
  {
    term: 'PEM file',
    definition:
      'The text encoding of a certificate chain (blocks between BEGIN CERTIFICATE and END CERTIFICATE lines). The a= tag of a BIMI record points to the PEM file of your mark certificate.',
  },
  {
    term: 'Prior use',
    definition: 'Evidence that a logo has been in public use for at least a year, usually captures of the applicant’s website in the Internet Archive. It is what a CMC is validated on.',
  },
  {
    term: 'SPF',
    expansion: 'Sender Policy Framework',
    definition:
      'A DNS TXT record listing the servers allowed to send mail for a domain, e.g. v=spf1 include:_spf.example.net -all. Receivers check the envelope sender’s domain against it. SPF allows at most ten DNS lookups.',
  },
  {
    term: 'SVG Tiny PS',
    expansion: 'SVG Tiny Portable/Secure',
    definition:
      'The restricted SVG profile required for BIMI logos: SVG Tiny 1.2 without scripts, animation, external references or embedded images, with baseProfile="tiny-ps", a <title> and a square aspect ratio.',
  },
  {
    term: 'Verified representative',
    definition:
      'The person who applies for a mark certificate on behalf of an organization. Their identity is verified in person or by video, and an officer of the organization confirms their authority.',
  },
  {
    term: 'VMC',
    expansion: 'Verified Mark Certificate',
    definition:
      'A mark certificate for a logo registered as a trademark with an accepted trademark office. Gmail shows the logo with a blue verified checkmark; Apple Mail requires a VMC to show a logo.',
  },
];
