import { DmarcAnswer, DmarcDifferences, SpfAnswer, SpfEvaluation, SpfFlattening } from '@bimi/contracts/tools';
import { useToolStore } from './tool-store';

// GET /api/tools/spf?domain=&ip=&sender=&helo=: RFC 7208 check_host() through the fixture DNS server.
const { get } = useToolStore();
async function evaluation(url: string) {
  const response = await get(url);
  expect(response.statusCode).toBe(200);
  const answer = SpfAnswer.parse(response.json());
  return { answer, evaluation: SpfEvaluation.parse(answer.details.evaluation) };
}

describe('SPF evaluation of one message', () => {
  it('would mail from 192.0.2.10 pass for good.example? pass, by ip4:192.0.2.0/24, with the lookup count', async () => {
    const { answer, evaluation: result } = await evaluation('/api/tools/spf?domain=good.example&ip=192.0.2.10');
    expect(answer.query).toEqual({ domain: 'good.example', ip: '192.0.2.10' });
    expect(result).toMatchObject({ result: 'pass', matched: { term: 'ip4:192.0.2.0/24', domain: 'good.example' }, lookups: 1, sender: 'postmaster@good.example' });
    // The record inspection is still there beside the verdict.
    expect(answer.details).toMatchObject({ domain: 'good.example', lookups: 2 });
  });

  it('an address only an include lists passes through it; others fail at -all', async () => {
    expect((await evaluation('/api/tools/spf?domain=good.example&ip=198.51.100.7')).evaluation).toMatchObject({ result: 'pass', matched: { term: 'include:_spf.good.example' }, lookups: 2 });
    expect((await evaluation('/api/tools/spf?domain=good.example&ip=203.0.113.5')).evaluation).toMatchObject({ result: 'fail', matched: { term: '-all' } });
  });

  it('expands macros with the sender and fetches the explanation of a fail', async () => {
    const alice = await evaluation('/api/tools/spf?domain=spf-eval.example&ip=203.0.113.5&sender=alice@spf-eval.example&helo=mail.spf-eval.example');
    expect(alice.answer.query).toEqual({ domain: 'spf-eval.example', ip: '203.0.113.5', sender: 'alice@spf-eval.example', helo: 'mail.spf-eval.example' });
    expect(alice.evaluation).toMatchObject({ result: 'pass', matched: { term: 'exists:%{l}.senders.spf-eval.example' } });
    expect(alice.evaluation.trace[0]).toMatchObject({ target: 'alice.senders.spf-eval.example', outcome: 'match' });
    const bob = await evaluation('/api/tools/spf?domain=spf-eval.example&ip=203.0.113.5&sender=bob@spf-eval.example');
    expect(bob.evaluation).toMatchObject({ result: 'fail', explanation: '203.0.113.5 is not allowed to send mail as bob@spf-eval.example', voidLookups: 1 });
  });

  it('a name server failure on an a: target is temperror, not a silent no-match', async () => {
    const { evaluation: result } = await evaluation('/api/tools/spf?domain=spf-temperror.example&ip=192.0.2.10');
    expect(result.result).toBe('temperror');
    expect(result.reason).toContain('down.spf-temperror-ns.example');
  });

  it('IPv6 is evaluated too, and an IPv4-mapped address counts as IPv4', async () => {
    expect((await evaluation('/api/tools/spf?domain=good.example&ip=2001:db8::99')).evaluation.result).toBe('fail');
    expect((await evaluation('/api/tools/spf?domain=good.example&ip=::ffff:192.0.2.10')).evaluation).toMatchObject({ result: 'pass', ip: '192.0.2.10' });
  });

  it.each([
    ['/api/tools/spf?domain=good.example&ip=999.1.1.1', /^ip: Please enter an IPv4 or IPv6 address/],
    ['/api/tools/spf?domain=good.example&ip=not-an-ip', /^ip: Please enter an IPv4 or IPv6 address/],
    ['/api/tools/spf?domain=good.example&sender=a@good.example', /Give the IP address of the sending server/],
    ['/api/tools/spf?domain=good.example&ip=192.0.2.1&sender=two%20words@x.example', /^sender: Please enter the MAIL FROM address/],
    ['/api/tools/spf?domain=192.0.2.1&ip=192.0.2.1', /^domain: Please enter a domain name, not an IP address/],
  ])('GET %s is a 400 saying what is wrong', async (url, message) => {
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('without an address the answer is the inspection alone, as before', async () => {
    const response = await get('/api/tools/spf?domain=good.example');
    expect(SpfAnswer.parse(response.json()).details).not.toHaveProperty('evaluation');
  });
});

describe('flattening advice over the lookup limit', () => {
  it('says what each include costs and gives a flattened record within the limit', async () => {
    const response = await get('/api/tools/spf?domain=spf-flatten.example');
    const answer = SpfAnswer.parse(response.json());
    const flattening = SpfFlattening.parse(answer.details.flattening);
    expect(flattening).toMatchObject({ lookups: 12, recordLookups: 10, record: 'v=spf1 ip4:198.51.100.0/24 ip6:2001:db8:1::/48 include:hosts.spf-flatten.example -all' });
    expect(flattening.includes.map((include) => [include.term, include.lookups, include.flattenable])).toEqual([
      ['include:hosts.spf-flatten.example', 10, false],
      ['include:p1.spf-flatten.example', 1, true],
      ['include:p2.spf-flatten.example', 1, true],
    ]);
    expect(answer.checks.find((check) => check.id === 'spf.flatten')?.detail).toContain('gives 10 lookups');
  });

  it('none within the limit', async () => {
    expect(SpfAnswer.parse((await get('/api/tools/spf?domain=good.example')).json()).details).not.toHaveProperty('flattening');
  });
});

describe('DMARC by RFC 7489 and RFC 9989', () => {
  it('pct=50 halves the policy for RFC 7489 receivers only: the answer says so', async () => {
    const answer = DmarcAnswer.parse((await get('/api/tools/dmarc?domain=dmarc-quarantine-pct.example')).json());
    expect(DmarcDifferences.parse(answer.details.differences)).toEqual([{ aspect: 'policy', rfc7489: 'quarantine on 50% of failing mail', rfc9989: 'quarantine' }]);
    expect(answer.checks.find((check) => check.id === 'dmarc.pct.partial')?.status).toBe('warn');
  });

  it('an invalid p= without a valid rua=: RFC 7489 ignores the record, RFC 9989 applies p=none', async () => {
    const answer = DmarcAnswer.parse((await get('/api/tools/dmarc?domain=dmarc-invalid.example')).json());
    expect(DmarcDifferences.parse(answer.details.differences)).toEqual([{ aspect: 'policy', rfc7489: 'no policy (record ignored)', rfc9989: 'none' }]);
  });

  it('the same answer from both for a plain p=reject record', async () => {
    const answer = DmarcAnswer.parse((await get('/api/tools/dmarc?domain=good.example')).json());
    expect(answer.details.differences).toEqual([]);
    expect(answer.checks.find((check) => check.id === 'dmarc.rfc.agree')?.status).toBe('info');
  });
});
