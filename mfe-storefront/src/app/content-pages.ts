import { lazy, type ComponentType } from 'react';
import type { PageProps } from '@bimi/ui/RouteTable';

/**
 * The resource, legal, landing and enrollment pages, each loaded when first shown, so the
 * home page (whose first render is benchmarked) does not carry their text.
 */
const page = <Name extends string>(load: () => Promise<Record<Name, ComponentType<PageProps>>>, name: Name) => lazy(() => load().then((module) => ({ default: module[name] })));

const HowItWorksPage = page(() => import('../features/how-it-works/HowItWorksPage'), 'HowItWorksPage');
const AboutPage = page(() => import('../features/about/AboutPage'), 'AboutPage');
const ContactPage = page(() => import('../features/contact/ContactPage'), 'ContactPage');
const HelpCenterPage = page(() => import('../features/help-center/HelpCenterPage'), 'HelpCenterPage');
const ArticlesPage = page(() => import('../features/articles/ArticlesPage'), 'ArticlesPage');
const ArticlePage = page(() => import('../features/articles/ArticlePage'), 'ArticlePage');
const FaqPage = page(() => import('../features/faq/FaqPage'), 'FaqPage');
const GlossaryPage = page(() => import('../features/glossary/GlossaryPage'), 'GlossaryPage');
const LegalPage = page(() => import('../features/legal/LegalPage'), 'LegalPage');
const LandingPage = page(() => import('../features/landing/LandingPage'), 'LandingPage');
const EntrustGuidePage = page(() => import('../features/landing/EntrustGuidePage'), 'EntrustGuidePage');
const EnrollmentPage = page(() => import('../features/enrollment/EnrollmentPage'), 'EnrollmentPage');

export const contentPages: Record<string, ComponentType<PageProps>> = {
  '/how-it-works': HowItWorksPage,
  '/about': AboutPage,
  '/contact': ContactPage,
  '/help-center': HelpCenterPage,
  '/articles': ArticlesPage,
  '/articles/what-is-bimi': ArticlePage,
  '/articles/vmc-vs-cmc': ArticlePage,
  '/articles/dmarc-enforcement-for-bimi': ArticlePage,
  '/articles/svg-tiny-ps-logo': ArticlePage,
  '/faq': FaqPage,
  '/glossary': GlossaryPage,
  '/privacy-policy': LegalPage,
  '/terms': LegalPage,
  '/refund-policy': LegalPage,
  '/landing/verified-mark-certificate': LandingPage,
  '/landing/common-mark-certificate': LandingPage,
  '/landing/government-mark-certificate': LandingPage,
  '/landing/entrust-to-digicert-vmc': LandingPage,
  '/landing/entrust-to-digicert/checklist': EntrustGuidePage,
  '/landing/entrust-to-digicert/faq': EntrustGuidePage,
  '/landing/entrust-to-digicert/*': EntrustGuidePage,
  '/digicert-enrollment': EnrollmentPage,
  '/digicert-enrollment/verified-mark-certificate': EnrollmentPage,
  '/digicert-enrollment/common-mark-certificate': EnrollmentPage,
  '/digicert-enrollment/government-mark-certificate': EnrollmentPage,
  '/digicert-enrollment/*': EnrollmentPage,
};
