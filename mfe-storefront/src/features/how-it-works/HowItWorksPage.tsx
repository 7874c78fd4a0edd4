import type { PageProps } from '@bimi/ui/RouteTable';
import { VALIDATION_TIME } from '@bimi/catalog/facts';
import { CallToAction } from '../../components/CallToAction';
import { ContentPage } from '../../components/ContentPage';
import { ContentsList, LongDocumentView } from '../../components/LongDocumentView';
import { code, links, list, p, steps, type Section } from '../../lib/document';

const SECTIONS: readonly Section[] = [
  {
    heading: '1. Authenticate your mail and reach DMARC enforcement',
    blocks: [
      p(
        'Mailboxes only show a BIMI logo on messages they can prove came from you. That proof is DMARC: a policy in DNS telling receivers what to do with mail that fails SPF and DKIM alignment. BIMI requires the policy to be at enforcement, p=quarantine or p=reject, for the whole domain.',
      ),
      steps(
        'List every service that sends as your domain: your mail servers, marketing platform, CRM, help desk, billing system.',
        'Give each one an SPF include or, better, a DKIM key signing with your domain, so its mail passes and aligns.',
        'Publish DMARC at p=none with a reporting address and read the aggregate reports until all legitimate mail passes.',
        'Move to p=quarantine, then p=reject. Keep monitoring: a new tool that sends unauthenticated mail will now be blocked.',
      ),
      code('_dmarc.example.com. 3600 IN TXT "v=DMARC1; p=reject; rua=mailto:dmarc-reports@example.com"'),
      links({ label: 'DMARC enforcement plans that do this with you', to: '/products/easydmarc-enforcement' }, { label: 'Inspect your current DMARC record', to: '/dmarc-inspector' }),
    ],
  },
  {
    heading: '2. Prepare your logo as SVG Tiny PS',
    blocks: [
      p(
        'BIMI logos use SVG Tiny Portable/Secure, a restricted SVG profile that mailboxes can render safely. Most design tools export plain SVG, so the file usually needs converting: set version="1.2" and baseProfile="tiny-ps", add a <title>, remove scripts, external references and embedded bitmaps, and make the artboard square with a solid background.',
      ),
      links({ label: 'Read our SVG Tiny PS guide', to: '/articles/svg-tiny-ps-logo' }),
    ],
  },
  {
    heading: '3. Order the right mark certificate',
    blocks: [
      list(
        'Verified Mark Certificate (VMC) if the logo is a registered trademark. Gmail adds a blue verified checkmark, and Apple Mail requires it.',
        'Common Mark Certificate (CMC) if you have shown the logo on your website for at least a year, or if you display a registered mark with small changes (modified registered mark).',
        'Government Mark Certificate (GMC) for a government body whose seal or logo is established by law.',
      ),
      links({ label: 'Compare mark certificates', to: '/products/digicert-mark-certificates' }, { label: 'VMC or CMC: how to choose', to: '/articles/vmc-vs-cmc' }),
    ],
  },
  {
    heading: '4. Pass validation',
    blocks: [
      p(
        `After your order, DigiCert validates your organization in a government business registry, confirms you control the domains, verifies the mark, verifies the identity of your representative before a notary or on a video call, and reviews the logo. We prepare the documents with you and follow up with the validation team. ${VALIDATION_TIME}`,
      ),
      links({ label: 'Mark Certificate Validation Guide (PDF)', to: '/docs/Mark-Certificate-Validation-Guide.pdf' }, { label: 'Start your enrollment', to: '/digicert-enrollment' }),
    ],
  },
  {
    heading: '5. Publish your BIMI record',
    blocks: [
      p('Host the SVG logo and the PEM certificate file over HTTPS, then add one TXT record. Mailboxes fetch both when they receive your mail and cache them.'),
      code('default._bimi.example.com. 3600 IN TXT "v=BIMI1; l=https://example.com/bimi/logo.svg; a=https://example.com/bimi/vmc.pem"'),
      links({ label: 'Check your record with the BIMI checker', to: '/bimi-checker' }, { label: 'Validate your certificate file', to: '/vmc-validator' }),
    ],
  },
  {
    heading: '6. Keep it running',
    blocks: [
      p(
        'Certificates are re-issued every year; on a two- or three-year plan the re-issue is included. Replace the PEM file at the same address when it arrives. Keep DMARC at enforcement and your trademark registration live, or mailboxes stop showing the logo. Domain monitors in your account warn you when something changes.',
      ),
    ],
  },
];

export function HowItWorksPage({ route }: PageProps) {
  return (
    <>
      <ContentPage title={route.title} lead="From DMARC enforcement to your logo in the inbox: what to do, in order, and how long each step takes.">
        <ContentsList sections={SECTIONS} />
        <LongDocumentView sections={SECTIONS} />
      </ContentPage>
      <CallToAction
        id="how-cta-heading"
        heading="Start with a free check"
        text="The BIMI checker shows in seconds which of these steps your domain has already done."
        primary={{ label: 'Check my domain', to: '/bimi-checker' }}
        secondary={{ label: 'Compare certificates', to: '/products/digicert-mark-certificates' }}
      />
    </>
  );
}
