import { Check, SpfEvaluation, SpfToolQuery, ToolAnswer, summarize } from './tools';

describe('tool answers', () => {
  const check = (status: Check['status']): Check => ({ id: `x.${status}`, status, title: 't', detail: 'd' });

  it('grades a list of checks by its worst status', () => {
    expect(summarize([check('pass'), check('warn'), check('fail')])).toBe('fail');
    expect(summarize([check('pass'), check('warn'), check('info')])).toBe('warn');
    expect(summarize([check('info'), check('pass')])).toBe('pass');
    expect(summarize([check('info')])).toBe('info');
    expect(summarize([])).toBe('info');
    // A wrong record outranks a missing one, which outranks one we could not fetch.
    expect(summarize([check('absent'), check('fail'), check('unreachable')])).toBe('fail');
    expect(summarize([check('unreachable'), check('absent'), check('warn')])).toBe('absent');
    expect(summarize([check('pass'), check('unreachable'), check('warn')])).toBe('unreachable');
  });

  it('carries the verdict: question, headline, status (nonexistent too), score', () => {
    const answer = {
      tool: 'records',
      query: { domain: 'nope.example' },
      records: [],
      checks: [],
      verdict: { question: 'Will my logo show?', headline: 'nope.example does not exist', status: 'nonexistent', hygiene: [] },
    };
    expect(ToolAnswer.safeParse(answer).success).toBe(true);
    expect(ToolAnswer.safeParse({ ...answer, verdict: { ...answer.verdict, status: 'maybe' } }).success).toBe(false);
  });

  it('accepts the shared answer shape and refuses an unknown status', () => {
    const answer = { tool: 'txt', query: { name: 'example.com' }, records: [{ name: 'example.com', type: 'TXT', value: 'v=spf1 -all' }], checks: [check('pass')] };
    expect(ToolAnswer.safeParse(answer).success).toBe(true);
    expect(ToolAnswer.safeParse({ ...answer, checks: [{ ...check('pass'), status: 'ok' }] }).success).toBe(false);
  });

  it("reads each tool's details with that tool's schema, and refuses an answer that names no tool", () => {
    const answer = { query: { domain: 'example.com' }, records: [], checks: [] };
    const dkim = { domain: 'example.com', tried: ['default'], selectors: [] };
    expect(ToolAnswer.safeParse({ ...answer, tool: 'dkim', details: dkim })).toMatchObject({ success: true, data: { tool: 'dkim', details: dkim } });
    expect(ToolAnswer.safeParse({ ...answer, tool: 'dmarc', details: dkim }).success).toBe(false);
    expect(ToolAnswer.safeParse({ ...answer, tool: 'dkim' }).success).toBe(false);
    expect(ToolAnswer.safeParse({ ...answer, tool: 'vmc' }).success).toBe(true);
    expect(ToolAnswer.safeParse({ ...answer, details: dkim }).success).toBe(false);
  });
});

describe('the SPF query and evaluation', () => {
  it('takes an IP address, and a sender or HELO name only with one', () => {
    expect(SpfToolQuery.safeParse({ domain: 'example.com' }).success).toBe(true);
    expect(SpfToolQuery.safeParse({ domain: 'example.com', ip: ' 192.0.2.10 ', sender: 'bounce@example.com', helo: 'mail.example.com' })).toMatchObject({
      success: true,
      data: { ip: '192.0.2.10' },
    });
    expect(SpfToolQuery.safeParse({ domain: 'example.com', ip: '2001:db8::1' }).success).toBe(true);
    expect(SpfToolQuery.safeParse({ domain: 'example.com', ip: 'mail.example.com' }).success).toBe(false);
    expect(SpfToolQuery.safeParse({ domain: 'example.com', sender: 'bounce@example.com' }).success).toBe(false);
    expect(SpfToolQuery.safeParse({ domain: 'example.com', ip: '192.0.2.10', sender: 'two words@example.com' }).success).toBe(false);
  });

  it('reads an evaluation with one of the seven results, and refuses another word', () => {
    const evaluation = {
      result: 'pass',
      ip: '192.0.2.10',
      domain: 'example.com',
      sender: 'postmaster@example.com',
      helo: 'example.com',
      matched: { term: 'a', domain: 'example.com' },
      reason: 'a matches',
      lookups: 1,
      voidLookups: 0,
      trace: [{ domain: 'example.com', term: 'a', depth: 0, outcome: 'match' }],
    };
    expect(SpfEvaluation.safeParse(evaluation).success).toBe(true);
    expect(SpfEvaluation.safeParse({ ...evaluation, result: 'ok' }).success).toBe(false);
  });
});
