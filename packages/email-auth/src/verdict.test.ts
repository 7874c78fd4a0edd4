import { absent, fail, info, pass, scoreChecks, unreachable, warn } from './checks';
import { verdictOf } from './verdict';

const reportsElsewhere = fail('dmarc.rua.unauthorized', 'External report address not authorized', 'd', 'f');

describe('scoreChecks: the formula of the README, one band per answer', () => {
  it('a fail in what the question asks never scores above a pass, whatever the count', () => {
    expect(scoreChecks([pass('a.b', 't', 'd'), fail('a.c', 't', 'd', 'f')])).toBe(49);
    expect(scoreChecks([pass('a.b', 't', 'd')], 90)).toBe(90);
    expect(scoreChecks([absent('a.b', 't', 'd', 'f')])).toBe(49);
  });

  it('a warning stays in 50–89; a ceiling under 90 is a warning band', () => {
    expect(scoreChecks([warn('a.b', 't', 'd', 'f')])).toBe(89);
    expect(scoreChecks([pass('a.b', 't', 'd')], 70)).toBe(70);
  });

  it('hygiene takes at most 10 points and never leaves the band: p=reject reporting elsewhere stays a pass', () => {
    const checks = [pass('dmarc.record.found', 't', 'd'), reportsElsewhere, warn('dmarc.ruf.missing', 't', 'd', 'f'), info('dmarc.pct.obsolete', 't', 'd')];
    expect(scoreChecks(checks)).toBe(90);
    expect(scoreChecks([pass('dmarc.record.found', 't', 'd'), warn('dmarc.rua.missing', 't', 'd', 'f')])).toBe(95);
  });
});

describe('verdictOf', () => {
  it('DMARC p=reject whose reports go to an unauthorized domain: protected and ready, green, hygiene apart', () => {
    const checks = [pass('dmarc.record.found', 't', 'd'), pass('dmarc.bimi.ready', 't', 'd'), reportsElsewhere];
    const verdict = verdictOf('dmarc', checks, scoreChecks(checks));
    expect(verdict).toEqual({
      question: 'Is my domain protected, and is it ready for BIMI?',
      headline: 'Protected, and ready for BIMI',
      status: 'pass',
      score: 95,
      hygiene: ['dmarc.rua.unauthorized'],
    });
  });

  it('DKIM with no key at any selector is absent at 0, not "works, with warnings"', () => {
    const verdict = verdictOf('dkim', [absent('dkim.selector.not-found', 't', 'd', 'f')], 0);
    expect(verdict).toMatchObject({ status: 'absent', headline: 'No DKIM key found at any selector we tried', score: 0 });
  });

  it('a pass whose ceiling puts the score lower takes the score band (headline and score agree)', () => {
    expect(verdictOf('dkim', [pass('dkim.record.found', 't', 'd'), warn('dkim.key.revoked', 't', 'd', 'f')], 0)).toMatchObject({ status: 'fail', score: 0 });
  });

  it('unreachable: says so, no score; a known fail still wins', () => {
    const down = unreachable('bimi.logo.fetch', 'The logo could not be reached', 'd', 'f');
    expect(verdictOf('bimi', [pass('bimi.record.found', 't', 'd'), down], 80)).toEqual({
      question: 'Will my logo show?',
      headline: 'Cannot tell yet: we could not reach the logo or certificate host. Try again',
      status: 'unreachable',
      hygiene: [],
    });
    expect(verdictOf('bimi', [fail('bimi.l.https', 't', 'd', 'f'), down], 40)).toMatchObject({ status: 'fail', score: 40 });
    // The record itself not looked up: that is what the headline says, not a host.
    expect(verdictOf('bimi', [unreachable('bimi.lookup.error', 'BIMI lookup failed', 'd', 'f')], 0).headline).toBe('Cannot tell yet: the BIMI lookup failed. Try again');
  });

  it('a nonexistent domain is answered as such, with no score and no advice to publish', () => {
    expect(verdictOf('bimi', [absent('bimi.record.missing', 't', 'd', 'f')], 0, { exists: false, subject: 'nope.test' })).toEqual({
      question: 'Will my logo show?',
      headline: 'nope.test does not exist: DNS has no such domain. Check the spelling',
      status: 'nonexistent',
      hygiene: [],
    });
  });

  it('unscored tools carry no score', () => {
    expect(verdictOf('txt', [pass('txt.lookup', 't', 'd')], undefined)).toEqual({ question: 'What is published at this name?', headline: 'No problems found', status: 'pass', hygiene: [] });
  });
});
