import type { MonitorSnapshot, RecordGroupReport } from '@bimi/contracts/monitors';
import { certificateEndLastKnown, changesSince } from './changes';
import { healthWithLastKnown } from './health';

type Run = Pick<MonitorSnapshot, 'groups' | 'certificate'>;
const DMARC = { name: '_dmarc.example.com', type: 'TXT', value: 'v=DMARC1; p=reject' };
const group = (name: RecordGroupReport['group'], read: boolean, records = read ? [DMARC] : []): RecordGroupReport => ({
  group: name,
  label: name,
  status: read ? 'pass' : 'unreachable',
  records,
  checks: read
    ? [{ id: `${name}.ok`, status: 'pass', title: 'Fine', detail: 'Fine.' }]
    : [{ id: `${name}.lookup.error`, status: 'unreachable', title: 'Lookup failed', detail: 'Timed out.', fix: 'Try again.' }],
});
const run = (dmarcRead: boolean, certificateRead: boolean, validTo: string | null): Run =>
  ({ groups: [group('dmarc', dmarcRead), group('certificate', certificateRead, [])], certificate: { validTo } }) as unknown as Run;

describe('a monitor run that could not read a group', () => {
  it('changes nothing for it, scores it as last read, and compares it with that reading once read again', () => {
    const read = run(true, true, '2027-01-01T00:00:00.000Z');
    const outage = run(false, false, null);
    expect(changesSince([read], outage)).toEqual([]);
    expect(healthWithLastKnown([read], outage.groups)).toBe(healthWithLastKnown([], read.groups));
    // Two runs in a row, then read again: no "published".
    expect(changesSince([outage, outage, read], read).filter((change) => change.kind !== 'status')).toEqual([]);
    expect(certificateEndLastKnown([outage, read], outage)).toBe('2027-01-01T00:00:00.000Z');
    expect(certificateEndLastKnown([read], run(true, true, '2028-01-01T00:00:00.000Z'))).toBe('2028-01-01T00:00:00.000Z');
  });
});
