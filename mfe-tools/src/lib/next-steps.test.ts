import type { ToolAnswer, ToolName } from '@bimi/contracts/tools';
import { nextSteps, type Answered, type NextStep } from './next-steps';

const answer = (
  tool: ToolName,
  query: Record<string, string>,
  checks: [string, ToolAnswer['checks'][number]['status']][],
  status: NonNullable<ToolAnswer['verdict']>['status'],
  records: ToolAnswer['records'] = [],
): Answered => ({
  tool,
  query,
  records,
  checks: checks.map(([id, checkStatus]) => ({ id, status: checkStatus, title: 't', detail: 'd' })),
  verdict: { question: 'q', headline: 'h', status, hygiene: [] },
});

/** Where a step leads: its link, or the field it returns to. */
const target = (step: NextStep) => ('to' in step ? step.to : step.focus);

describe('nextSteps', () => {
  it('a domain without DMARC is offered the generator at p=none with a report address', () => {
    const steps = nextSteps(answer('dmarc', { domain: 'example.com' }, [['dmarc.record.missing', 'absent']], 'absent'));
    expect(steps[0]).toMatchObject({ id: 'dmarc-generator', to: '/account/tools/dmarc-generator?domain=example.com&p=none&rua=mailto%3Admarc-reports%40example.com' });
    expect(steps.map((step) => step.id)).toEqual(['dmarc-generator', 'add-monitor', 'validation-guide']);
  });

  it('a domain ready for BIMI is offered the BIMI generator, a certificate and a monitor', () => {
    const steps = nextSteps(
      answer(
        'dmarc',
        { domain: 'example.com' },
        [
          ['dmarc.record.found', 'pass'],
          ['dmarc.bimi.ready', 'pass'],
        ],
        'pass',
      ),
    );
    expect(steps.map((step) => [step.id, target(step)])).toEqual([
      ['bimi-generator', '/account/tools/bimi-generator?domain=example.com'],
      ['certificates', '/products/digicert-mark-certificates'],
      ['add-monitor', '/account/dashboard?addMonitor=example.com'],
      ['validation-guide', '/docs/Mark-Certificate-Validation-Guide.pdf'],
    ]);
  });

  it('p=none moves to quarantine keeping the report address; no BIMI record gets the BIMI generator', () => {
    const none = nextSteps(
      answer('dmarc', { domain: 'example.com' }, [['dmarc.policy.none', 'warn']], 'warn', [{ name: '_dmarc.example.com', type: 'TXT', value: 'v=DMARC1; p=none; rua=mailto:r@example.com' }]),
    );
    expect(none[0] && target(none[0])).toBe('/account/tools/dmarc-generator?domain=example.com&p=quarantine&rua=mailto%3Ar%40example.com');
    expect(nextSteps(answer('bimi', { domain: 'example.com' }, [['bimi.record.missing', 'absent']], 'absent'))[0]?.id).toBe('bimi-generator');
  });

  it('a nonexistent domain is told to check the spelling, nothing else; an unreachable one gets no monitor', () => {
    expect(nextSteps(answer('bimi', { domain: 'nope.example' }, [], 'nonexistent')).map((step) => step.id)).toEqual(['spelling']);
    // Issue 32: an answer we could not get asks to try again, and offers nothing to publish.
    expect(nextSteps(answer('dmarc', { domain: 'x.example' }, [['dmarc.lookup.error', 'unreachable']], 'unreachable')).map((step) => step.id)).toEqual(['retry', 'validation-guide']);
  });

  it('never suggests a weaker policy than the one published, and merges two records rather than creating one (issue 32)', () => {
    const reject = [{ name: '_dmarc.cnn.com', type: 'TXT', value: 'v=DMARC1; p=reject; sp=none; rua=mailto:d@cnn.com' }];
    const steps = nextSteps(answer('dmarc', { domain: 'cnn.com' }, [['dmarc.sp.none', 'warn']], 'warn', reject));
    expect(steps[0]).toMatchObject({ id: 'dmarc-generator', label: 'Make the policy BIMI-ready' });
    expect(target(steps[0] as NextStep)).toContain('p=reject');
    const two = [
      { name: '_dmarc.two.example', type: 'TXT', value: 'v=DMARC1; p=none' },
      { name: '_dmarc.two.example', type: 'TXT', value: 'v=DMARC1; p=reject' },
    ];
    const merged = nextSteps(answer('dmarc', { domain: 'two.example' }, [['dmarc.record.multiple', 'fail']], 'fail', two));
    expect(merged[0]).toMatchObject({ label: 'Merge the DMARC records into one' });
    expect(target(merged[0] as NextStep)).toContain('p=reject');
    // A name Add Monitor refuses is never offered as a monitor.
    expect(nextSteps(answer('txt', { name: '_spf.two.example' }, [], 'pass')).some((step) => step.id === 'add-monitor')).toBe(false);
  });
});
