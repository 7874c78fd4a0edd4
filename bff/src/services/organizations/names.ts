/**
 * Organization names are unique per account (issue 30: "Acme Corp" could be created twice, and the
 * certificate details then offered two organizations of one name). Two names are the same when they
 * differ only in case, in spaces around or between words, or in Unicode form: "Acme  corp" is
 * "Acme Corp". The key is what the database's unique index holds (organization_members.name_key,
 * one per member: every account a name is in).
 */
export function organizationNameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en-US');
}

/** What the buyer reads when a name is taken (409). */
export function duplicateOrganizationMessage(name: string, who: 'you' | 'a member' = 'you'): string {
  const holder = who === 'you' ? 'You already have' : 'A member of this organization already has';
  return `${holder} an organization named “${name.trim()}”. Choose it from the list, or give this one another name.`;
}

/**
 * The names a migration gives organizations that already share a name within an account: the
 * first keeps its name, the next become "Acme Corp (2)", "Acme Corp (3)" … whichever is free for
 * every one of its members. `organizations` in the order they were created; answers the new name
 * of each that must change, and every organization's key.
 */
export function distinctOrganizationNames(organizations: readonly { id: string; name: string; memberIds: readonly string[] }[]): { renamed: Map<string, string>; keys: Map<string, string> } {
  const taken = new Map<string, Set<string>>();
  const renamed = new Map<string, string>();
  const keys = new Map<string, string>();
  const free = (key: string, memberIds: readonly string[]) => memberIds.every((member) => !taken.get(member)?.has(key));
  for (const organization of organizations) {
    let name = organization.name;
    for (let n = 2; !free(organizationNameKey(name), organization.memberIds); n += 1) {
      // Within the column's 200 characters: a long name is shortened, never its number.
      const suffix = ` (${n})`;
      name = `${organization.name.trim().slice(0, 200 - suffix.length)}${suffix}`;
    }
    if (name !== organization.name) renamed.set(organization.id, name);
    const key = organizationNameKey(name);
    keys.set(organization.id, key);
    for (const member of organization.memberIds) {
      if (!taken.has(member)) taken.set(member, new Set());
      taken.get(member)?.add(key);
    }
  }
  return { renamed, keys };
}
