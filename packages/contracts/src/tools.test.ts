import { Check, ToolAnswer, summarize } from './tools';

describe('tool answers', () => {
  const check = (status: Check['status']): Check => ({ id: `x.${status}`, status, title: 't', detail: 'd' });

  it('grades a list of checks by its worst status', () => {
    expect(summarize([check('pass'), check('warn'), check('fail')])).toBe('fail');
    expect(summarize([check('pass'), check('warn'), check('info')])).toBe('warn');
    expect(summarize([check('info'), check('pass')])).toBe('pass');
    expect(summarize([check('info')])).toBe('info');
    expect(summarize([])).toBe('info');
  });

  it('accepts the shared answer shape and refuses an unknown status', () => {
    const answer = { query: { domain: 'example.com' }, records: [{ name: '_dmarc.example.com', type: 'TXT', value: 'v=DMARC1; p=reject' }], checks: [check('pass')] };
    expect(ToolAnswer.safeParse(answer).success).toBe(true);
    expect(ToolAnswer.safeParse({ ...answer, checks: [{ ...check('pass'), status: 'ok' }] }).success).toBe(false);
  });
});
