import { lazy } from 'react';

// The product pages (configurators, comparison table) load on their own, so the home page does not carry them.
const certificatePages = () => import('./CertificatePage');

export const MarkCertificatesPage = lazy(() => import('./MarkCertificatesPage').then((module) => ({ default: module.MarkCertificatesPage })));
export const VerifiedMarkPage = lazy(() => certificatePages().then((module) => ({ default: module.VerifiedMarkPage })));
export const CommonMarkPage = lazy(() => certificatePages().then((module) => ({ default: module.CommonMarkPage })));
export const GovernmentMarkPage = lazy(() => certificatePages().then((module) => ({ default: module.GovernmentMarkPage })));
export const DmarcEnforcementPage = lazy(() => import('./DmarcEnforcementPage').then((module) => ({ default: module.DmarcEnforcementPage })));
