import { RECORD_GROUP_LABELS, type MonitorSnapshot, type RecordChange } from '@bimi/contracts/monitors';

type Compared = Pick<MonitorSnapshot, 'groups' | 'certificate'>;

/**
 * What changed since the run before, record by record: a record published, removed or changed
 * (same owner name and type, another value), a group whose verdict moved, and the certificate's
 * end date. Empty on the first run.
 */
export function changesSince(before: Compared | null, after: Compared): RecordChange[] {
  if (!before) return [];
  const changes: RecordChange[] = [];
  for (const group of after.groups) {
    const old = before.groups.find((candidate) => candidate.group === group.group);
    if (!old) continue;
    const label = RECORD_GROUP_LABELS[group.group];
    const key = (record: { name: string; type: string }) => `${record.type} ${record.name}`;
    const oldByKey = new Map<string, string[]>();
    for (const record of old.records) oldByKey.set(key(record), [...(oldByKey.get(key(record)) ?? []), record.value]);
    const newByKey = new Map<string, string[]>();
    for (const record of group.records) newByKey.set(key(record), [...(newByKey.get(key(record)) ?? []), record.value]);
    for (const [name, values] of newByKey) {
      const previous = oldByKey.get(name);
      const now = [...values].sort().join('\n');
      if (!previous) changes.push({ group: group.group, kind: 'added', title: `${label}: ${name} published`, before: null, after: now });
      else if ([...previous].sort().join('\n') !== now)
        changes.push({ group: group.group, kind: 'changed', title: `${label}: ${name} changed`, before: [...previous].sort().join('\n'), after: now });
    }
    for (const [name, values] of oldByKey) {
      if (!newByKey.has(name)) changes.push({ group: group.group, kind: 'removed', title: `${label}: ${name} removed`, before: [...values].sort().join('\n'), after: null });
    }
    if (old.status !== group.status)
      changes.push({ group: group.group, kind: 'status', title: `${label} went from ${old.status} to ${group.status}`, before: old.status, after: group.status });
  }
  if ((before.certificate.validTo ?? null) !== (after.certificate.validTo ?? null)) {
    changes.push({ group: 'certificate', kind: 'changed', title: 'Mark certificate end date changed', before: before.certificate.validTo, after: after.certificate.validTo });
  }
  return changes;
}
