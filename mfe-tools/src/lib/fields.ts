import { validateDnsName, validateDomain, validateHttpsUrl, validateSelector } from './domain';
import type { ToolField } from './useToolRun';

// The form fields the checkers share. Module constants: useToolRun keys its effects on them.

export const DOMAIN_FIELD: ToolField = {
  name: 'domain',
  label: 'Domain',
  validate: validateDomain,
  placeholder: 'example.com',
};

export const NAME_FIELD: ToolField = {
  name: 'name',
  label: 'DNS name',
  validate: validateDnsName,
  placeholder: '_dmarc.example.com',
};

export const DKIM_SELECTOR_FIELD: ToolField = {
  name: 'selector',
  label: 'Selector',
  validate: validateSelector,
  optional: true,
  placeholder: 'google, s1, selector1…',
  helperText: 'Leave empty to try the common selectors',
};

export const BIMI_SELECTOR_FIELD: ToolField = {
  name: 'selector',
  label: 'Selector',
  validate: validateSelector,
  optional: true,
  placeholder: 'default',
  helperText: 'Most senders use default',
};

export const CERTIFICATE_URL_FIELD: ToolField = {
  name: 'url',
  label: 'Certificate address',
  validate: validateHttpsUrl,
  placeholder: 'https://example.com/bimi/vmc.pem',
};
