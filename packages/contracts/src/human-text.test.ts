import { ProfileUpdate, OrganizationCreate, ContactInput, TicketCreate } from './account';
import { SignUpRequest } from './auth';
import { PartnerSignUpRequest } from './partners';
import { ContactRequest } from './contact';
import { humanText, isCleanHumanText, toOneLine } from './human-text';
import { HOSTILE_TEXT, LEGITIMATE_TEXT, LINE_BREAKS } from './human-text-samples';

const field = humanText({ label: 'Name', max: 100 });
const message = humanText({ label: 'Message', max: 500, multiline: true, min: 1 });

describe('humanText', () => {
  it.each([...HOSTILE_TEXT, ...LINE_BREAKS])('refuses %s in a single-line field, naming the field', (_what, input) => {
    const result = field.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(
      /^Name (must not contain control or invisible formatting characters \(found U\+[0-9A-F]{4,5}\)|must be on one line|contains a broken character)/,
    );
  });

  it.each(HOSTILE_TEXT)('refuses %s in a multi-line field too', (_what, input) => {
    expect(message.safeParse(input).success).toBe(false);
  });

  it('keeps newlines and tabs in a multi-line field, with CRLF and CR line endings made LF', () => {
    expect(message.parse('Hello,\r\n\tline two\rline three\n')).toBe('Hello,\n\tline two\nline three');
  });

  it.each(LEGITIMATE_TEXT)('passes %s unchanged', (input) => {
    expect(field.parse(input)).toBe(input);
    expect(isCleanHumanText(input)).toBe(true);
  });

  it('normalizes to NFC and trims', () => {
    const decomposed = 'Zoe\u0308 Ange\u0301lique';
    expect(field.parse(`  ${decomposed}  `)).toBe('Zoë Angélique');
    expect(field.parse('Jane Doe\r\n')).toBe('Jane Doe');
  });

  it('caps the length and requires something', () => {
    expect(field.safeParse('x'.repeat(101)).error?.issues[0]?.message).toBe('Name must be at most 100 characters');
    expect(field.safeParse('   ').error?.issues[0]?.message).toBe('Name is required');
    expect(field.safeParse(undefined).error?.issues[0]?.message).toBe('Name is required');
  });
});

describe('every human text field of the contracts', () => {
  const forms: {
    name: string;
    schema: { safeParse(input: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } };
    valid: Record<string, unknown>;
    fields: string[];
    multiline?: string[];
  }[] = [
    { name: 'SignUpRequest', schema: SignUpRequest, valid: { name: 'Jane', email: 'jane@example.com', password: 'correct horse 42' }, fields: ['name'] },
    {
      name: 'PartnerSignUpRequest',
      schema: PartnerSignUpRequest,
      valid: { company: 'Acme', website: 'acme.example', contactName: 'Ann', email: 'ann@acme.example', phone: '+1 202 555 0143', message: 'Hello there' },
      fields: ['company', 'contactName', 'phone'],
      multiline: ['message'],
    },
    { name: 'ProfileUpdate', schema: ProfileUpdate, valid: { name: 'Jane' }, fields: ['name'] },
    { name: 'OrganizationCreate', schema: OrganizationCreate, valid: { name: 'Acme' }, fields: ['name'] },
    {
      name: 'ContactInput',
      schema: ContactInput,
      valid: { kind: 'technical', name: 'Ann', email: 'ann@acme.example', phone: '+1 202 555 0143', jobTitle: 'CTO', company: 'Acme' },
      fields: ['name', 'phone', 'jobTitle', 'company'],
    },
    { name: 'TicketCreate', schema: TicketCreate, valid: { category: 'billing', subject: 'Invoice', message: 'Please resend my invoice.' }, fields: ['subject'], multiline: ['message'] },
    {
      name: 'ContactRequest',
      schema: ContactRequest,
      valid: { name: 'Ann', email: 'ann@acme.example', company: 'Acme', topic: 'sales', message: 'I would like a quote.' },
      fields: ['name', 'company'],
      multiline: ['message'],
    },
  ];

  for (const form of forms) {
    it(`${form.name}: refuses every hostile input in ${[...form.fields, ...(form.multiline ?? [])].join(', ')}, on the field at fault`, () => {
      expect(form.schema.safeParse(form.valid).success).toBe(true);
      for (const key of [...form.fields, ...(form.multiline ?? [])]) {
        const inputs = form.fields.includes(key) ? [...HOSTILE_TEXT, ...LINE_BREAKS] : HOSTILE_TEXT;
        for (const [what, hostile] of inputs) {
          const result = form.schema.safeParse({ ...form.valid, [key]: `${hostile} long enough` });
          expect({ key, what, success: result.success, path: result.error?.issues[0]?.path }).toEqual({ key, what, success: false, path: [key] });
        }
      }
    });
  }
});

it('PartnerSignUpRequest: refuses a website with a line break, tab or control that the URL parser would drop', () => {
  const valid = { company: 'Acme', website: 'acme.example', contactName: 'Ann', email: 'ann@acme.example' };
  for (const website of ['acme\n.example', 'acme.exa\tmple', 'acme\u0000.example', 'acme.example\u202E']) {
    expect(PartnerSignUpRequest.safeParse({ ...valid, website }).error?.issues[0]?.message).toBe('Enter a valid website address (e.g., https://example.com)');
  }
});

describe('toOneLine', () => {
  it('makes stored text safe for a mail header: no breaks, no controls, no overrides, capped', () => {
    expect(toOneLine('Acme\r\nBcc: victim@example.com')).toBe('Acme Bcc: victim@example.com');
    expect(toOneLine('Ac\u0000me \u202Egnp.exe\uD800')).toBe('Acme gnp.exe');
    expect(toOneLine('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
    for (const legitimate of LEGITIMATE_TEXT.slice(0, 10)) expect(toOneLine(legitimate)).toBe(legitimate);
  });
});
