import { RECORD_GROUP_LABELS, type MonitorSnapshot, type RecordChange } from '@bimi/contracts/monitors';
import { lastRead, unread } from './health';

type Compared = Pick<MonitorSnapshot, 'groups' | 'certificate'>;

/** Groups of the certificate's own lookups and fetches: the certificate card is read with them. */
const certificateUnread = (run: Compared) => run.groups.some((group) => group.group === 'certificate' && unread(group));

const key = (record: { name: string; type: string }) => `${record.type} ${record.name}`;

/**
 * The records `runs[index]` did not read (newest first): those of its unread groups, as the runs
 * before it last read them. Another group that shows one of them (the BIMI group shows the DMARC
 * record it needs) did not read it either, so its absence there is no news.
 */
function notReadIn(runs: readonly Compared[], index: number): Set<string> {
  const run = runs[index];
  if (!run) return new Set();
  return new Set(run.groups.filter(unread).flatMap((group) => (lastRead(runs.slice(index + 1), group.group)?.records ?? []).map(key)));
}

/**
 * What changed since the run before, record by record: a record published, removed or changed
 * (same owner name and type, another value), a group whose verdict moved, and the certificate's
 * end date, against the last run that read each (`before`: the runs before, newest first). Empty on
 * the first run. What a run could not read (`unread`) changed nothing: a record not read was not
 * removed, and read again after an outage it is compared with what was read before it.
 */
export function changesSince(before: readonly Compared[], after: Compared): RecordChange[] {
  if (before.length === 0) return [];
  const changes: RecordChange[] = [];
  const runs = [after, ...before];
  const notReadNow = notReadIn(runs, 0);
  for (const group of after.groups) {
    if (unread(group)) continue;
    const oldIndex = before.findIndex((run) => run.groups.some((candidate) => candidate.group === group.group && !unread(candidate)));
    const old = before[oldIndex]?.groups.find((candidate) => candidate.group === group.group);
    if (!old) continue;
    const notReadThen = notReadIn(runs, oldIndex + 1);
    const label = RECORD_GROUP_LABELS[group.group];
    const oldByKey = new Map<string, string[]>();
    for (const record of old.records) oldByKey.set(key(record), [...(oldByKey.get(key(record)) ?? []), record.value]);
    const newByKey = new Map<string, string[]>();
    for (const record of group.records) newByKey.set(key(record), [...(newByKey.get(key(record)) ?? []), record.value]);
    for (const [name, values] of newByKey) {
      const previous = oldByKey.get(name);
      const now = [...values].sort().join('\n');
      if (!previous && !notReadThen.has(name)) changes.push({ group: group.group, kind: 'added', title: `${label}: ${name} published`, before: null, after: now });
      else if (previous && [...previous].sort().join('\n') !== now)
        changes.push({ group: group.group, kind: 'changed', title: `${label}: ${name} changed`, before: [...previous].sort().join('\n'), after: now });
    }
    for (const [name, values] of oldByKey) {
      if (!newByKey.has(name) && !notReadNow.has(name))
        changes.push({ group: group.group, kind: 'removed', title: `${label}: ${name} removed`, before: [...values].sort().join('\n'), after: null });
    }
    if (old.status !== group.status)
      changes.push({ group: group.group, kind: 'status', title: `${label} went from ${old.status} to ${group.status}`, before: old.status, after: group.status });
  }
  const certificateBefore = before.find((run) => !certificateUnread(run));
  if (certificateBefore && !certificateUnread(after) && (certificateBefore.certificate.validTo ?? null) !== (after.certificate.validTo ?? null)) {
    changes.push({ group: 'certificate', kind: 'changed', title: 'Mark certificate end date changed', before: certificateBefore.certificate.validTo, after: after.certificate.validTo });
  }
  return changes;
}

/** The certificate's end date as last read: this run's, or when it could not read the certificate, the last run's that did. */
export function certificateEndLastKnown(before: readonly Compared[], after: Compared): string | null {
  const read = certificateUnread(after) ? before.find((run) => !certificateUnread(run)) : after;
  return read?.certificate.validTo ?? null;
}
