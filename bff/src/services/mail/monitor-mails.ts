import { MONITOR_PATHS, type MonitorIssue, type RecordChange } from '@bimi/contracts/monitors';
import { SITE_NAME } from '@bimi/contracts/site';
import type { MailMessage } from './message';

/**
 * The domain monitors' alert mail (issue 13): what changed in one run — the score dropped, records
 * changed, the certificate expires soon — in one message, with a link to the monitor page.
 */
export interface MonitorAlertContent {
  domain: string;
  scoreDrop?: { from: number; to: number };
  changes: RecordChange[];
  certificateExpiry?: { validTo: string; daysLeft: number };
  topIssues: MonitorIssue[];
}

export function monitorAlertSubject(alert: MonitorAlertContent): string {
  if (alert.certificateExpiry && alert.certificateExpiry.daysLeft < 0) return `${alert.domain}: the mark certificate has expired`;
  if (alert.scoreDrop) return `${alert.domain}: health score dropped from ${alert.scoreDrop.from} to ${alert.scoreDrop.to}`;
  if (alert.changes.length > 0) return `${alert.domain}: ${alert.changes.length === 1 ? 'a record changed' : `${alert.changes.length} record changes`}`;
  if (alert.certificateExpiry) return `${alert.domain}: the mark certificate expires in ${alert.certificateExpiry.daysLeft} days`;
  return `${alert.domain}: monitor alert`;
}

export function monitorAlertMail(to: string, name: string, baseUrl: string, alert: MonitorAlertContent): MailMessage {
  const parts: string[] = [];
  if (alert.scoreDrop) parts.push(`The health score of ${alert.domain} dropped from ${alert.scoreDrop.from} to ${alert.scoreDrop.to}.`);
  if (alert.changes.length > 0) {
    parts.push(
      `What changed since the last check:\n${alert.changes.map((change) => `- ${change.title}${change.after !== null && change.kind !== 'status' ? `\n  now: ${change.after.length > 200 ? `${change.after.slice(0, 200)}…` : change.after}` : ''}`).join('\n')}`,
    );
  }
  if (alert.certificateExpiry) {
    parts.push(
      alert.certificateExpiry.daysLeft < 0
        ? `The mark certificate expired on ${alert.certificateExpiry.validTo.slice(0, 10)}: Gmail and Apple Mail no longer show the logo. Renew it and publish the new PEM file.`
        : `The mark certificate expires on ${alert.certificateExpiry.validTo.slice(0, 10)}, in ${alert.certificateExpiry.daysLeft} days. Renew it before then to keep the logo in Gmail and Apple Mail.`,
    );
  }
  if (alert.topIssues.length > 0)
    parts.push(
      `Fix first:\n${alert.topIssues
        .slice(0, 3)
        .map((issue) => `- ${issue.title}: ${issue.fix}`)
        .join('\n')}`,
    );
  return {
    to,
    subject: `${SITE_NAME}: ${monitorAlertSubject(alert)}`,
    text: `Hello ${name},

${parts.join('\n\n')}

See the details:
${baseUrl}${MONITOR_PATHS.page(alert.domain)}

You get these alerts because "Domain monitor alerts" is on in your notification settings:
${baseUrl}/account/settings
`,
  };
}
